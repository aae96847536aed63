// Placeholder until this tab lands (issue 5).
export default function LogsTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <p className="muted">Message logs: coming in the messages console.</p>
    </div>
  );
}
