// Placeholder until this tab lands (issue 5).
export default function ComposeTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <p className="muted">The message composer: coming in the messages console.</p>
    </div>
  );
}
