// Placeholder until this tab lands (issue 5).
export default function QueuesTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <p className="muted">Queues: coming in the messages console.</p>
    </div>
  );
}
