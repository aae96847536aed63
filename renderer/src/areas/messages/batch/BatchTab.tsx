// Placeholder until this tab lands (issue 5).
export default function BatchTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <p className="muted">The batch builder: coming in the messages console.</p>
    </div>
  );
}
