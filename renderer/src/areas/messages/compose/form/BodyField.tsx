// The message body: a code editor (JSON-aware when the Content-Type says JSON), its size, Format JSON.
import { lazy, Suspense } from 'react';
import type { ComposerModel } from '../../../../../../shared/composer/model';
import { isJsonContentType } from '../../../../../../shared/composer/validate';
import { Button } from '../../../../ui/Button';
import { Field } from '../../../../ui/fields';

const CodeEditor = lazy(() => import('../../../../ui/CodeEditor'));

export function BodyField({
  model,
  onChange,
  warning,
}: {
  model: ComposerModel;
  onChange: (body: string) => void;
  warning?: string;
}) {
  const json = isJsonContentType(model.contentType);
  const bytes = new TextEncoder().encode(model.body).length;
  return (
    <Field
      label="Body"
      hint={warning ?? `${bytes.toLocaleString()} bytes${json ? ' · JSON' : ''}. Sent byte for byte.`}
    >
      {() => (
        <div className={warning ? 'body-field has-warning' : 'body-field'}>
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
              disabled={Boolean(warning)}
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
