// Placeholder until this tab lands (issue 5).
export default function SigningKeysTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <p className="muted">Signing keys: coming in the messages console.</p>
    </div>
  );
}
