// The message body: a code editor (JSON-aware when the Content-Type says JSON), its size, Format JSON.
import { lazy, Suspense } from 'react';
import type { ComposerModel } from '../../../../../../shared/composer/model';
import { isJsonContentType } from '../../../../../../shared/composer/validate';
import { MAX_BODY_BYTES } from '../../../../../../shared/messages/limits';
import { formatBytes, utf8Length } from '../../../../../../shared/messages/settings';
import { Button } from '../../../../ui/Button';
import { Field } from '../../../../ui/fields';

const CodeEditor = lazy(() => import('../../../../ui/CodeEditor'));

export function BodyField({
  model,
  onChange,
  onBlur,
  error,
  warning,
}: {
  model: ComposerModel;
  onChange: (body: string) => void;
  /** Focus left the body (its editor, or the plain box while the editor loads). */
  onBlur: () => void;
  /** Over the size limit: shown in place of the size line. */
  error?: string;
  warning?: string;
}) {
  const json = isJsonContentType(model.contentType);
  const bytes = utf8Length(model.body);
  return (
    <Field
      label="Body"
      error={error}
      hint={
        warning ??
        `${bytes.toLocaleString('en-US')} of ${formatBytes(MAX_BODY_BYTES)}${json ? ' · JSON' : ''}. Sent byte for byte.`
      }
    >
      {() => (
        // React's onBlur bubbles: one handler for the code editor and the fallback textarea.
        <div className={warning || error ? 'body-field has-warning' : 'body-field'} onBlur={onBlur}>
          <Suspense
            fallback={
              <textarea
                className="textarea input-mono"
                aria-label="Body"
                value={model.body}
                onChange={(event) => onChange(event.target.value)}
              />
            }
          >
            <CodeEditor
              value={model.body}
              onChange={onChange}
              json={json}
              ariaLabel="Body"
              placeholder={json ? '{ "hello": "world" }' : ''}
            />
          </Suspense>
          {json && model.body.trim() !== '' ? (
            <Button
              size="sm"
              variant="ghost"
              className="body-format"
              disabled={Boolean(warning || error)}
              onClick={() => onChange(JSON.stringify(JSON.parse(model.body), null, 2))}
            >
              Format JSON
            </Button>
          ) : null}
        </div>
      )}
    </Field>
  );
}
