// The request the destination receives: method, Content-Type, body and forwarded headers.
import { COMPOSER_METHODS, type ComposerModel } from '../../../../../../shared/composer/model';
import { BoundTextField, SelectField, Switch } from '../../../../ui/fields';
import { HeaderTable } from '../HeaderTable';
import { BodyField } from './BodyField';
import { Section } from './Section';
import type { SectionProps } from './section-props';

const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
];

export function RequestSection({
  model,
  set,
  error,
  warning,
  touch,
  shownErrors,
  variant,
  form,
}: SectionProps) {
  return (
    <Section title="Request">
      <div className="form-grid">
        <SelectField
          label="Method"
          value={model.destinationKind === 'llm' ? 'POST' : model.method}
          disabled={model.destinationKind === 'llm'}
          error={error('method')}
          hint="The method the destination receives (Upstash-Method)."
          onChange={(event) => set({ method: event.target.value as ComposerModel['method'] })}
        >
          {COMPOSER_METHODS.map((method) => (
            <option key={method}>{method}</option>
          ))}
        </SelectField>
        {variant !== 'webhook' ? (
          <BoundTextField
            form={form}
            name="contentType"
            label="Content-Type"
            mono
            list="composer-content-types"
            hint="Delivered with the body."
          />
        ) : null}
        <datalist id="composer-content-types">
          {CONTENT_TYPES.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
      </div>
      {variant !== 'webhook' ? (
        <BodyField
          model={model}
          onChange={(body) => set({ body })}
          onBlur={() => touch('body')}
          error={error('body')}
          warning={warning('body')}
        />
      ) : null}
      <HeaderTable
        label="Forward headers"
        rows={model.headers}
        onChange={(headers) => set({ headers })}
        errors={shownErrors}
        errorPrefix="headers"
        hint={
          variant === 'webhook'
            ? 'Added to every delivery (as upstash-forward-<name> in the URL).'
            : model.headerForward
              ? 'Sent as they are; with Header-Forward the service forwards every header of the request.'
              : 'Each is sent as Upstash-Forward-<name> and arrives at the destination as <name>.'
        }
      />
      <Switch
        label="Header-Forward"
        description={
          variant === 'webhook'
            ? 'Forward every header the webhook sender sends (e.g. its signature header). Recommended for webhooks.'
            : 'Upstash-Header-Forward: true — forward all headers of the publish request, unprefixed.'
        }
        checked={model.headerForward}
        onChange={(headerForward) => set({ headerForward })}
      />
    </Section>
  );
}
