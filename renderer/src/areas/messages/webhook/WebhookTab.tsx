// Placeholder until this tab lands (issue 5).
export default function WebhookIntakeTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <p className="muted">Webhook intake URLs: coming in the messages console.</p>
    </div>
  );
}
