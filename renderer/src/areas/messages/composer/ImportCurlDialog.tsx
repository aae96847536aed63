// Paste a curl command (ours, a browser's "Copy as cURL", or a webhook intake URL) to fill the form.
import { useState } from 'react';
import { type CurlImport, importCurl } from '../../../../../shared/composer/curl';
import { TextareaField } from '../../../ui/fields';
import { FormDialog } from '../../../ui/FormDialog';

export function ImportCurlDialog({
  open,
  onClose,
  onImport,
}: {
  open: boolean;
  onClose: () => void;
  onImport: (result: CurlImport) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = () => {
    try {
      onImport(importCurl(text));
      setText('');
      setError(undefined);
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };
  if (!open) return null;
  return (
    <FormDialog
      title="Import a curl command"
      onClose={onClose}
      submitLabel="Import"
      onSubmit={submit}
      disabled={text.trim() === ''}
    >
      <TextareaField
        label="curl command"
        className="import-curl"
        rows={9}
        spellCheck={false}
        autoFocus
        value={text}
        error={error}
        placeholder={`curl -X POST 'https://example.com/hook' -H 'Content-Type: application/json' -d '{"a":1}'`}
        hint="A call of the publish API is read back option by option; any other request becomes a message to its URL. Tokens in it are never imported."
        onChange={(event) => setText(event.target.value)}
      />
    </FormDialog>
  );
}
