// A callback or failure callback: its URL, method, own retry settings and headers.
import { type CallbackModel, COMPOSER_METHODS } from '../../../../../../shared/composer/model';
import { SelectField, TextField } from '../../../../ui/fields';
import { HeaderTable } from '../HeaderTable';
import { Section } from './Section';

export function CallbackSection({
  title,
  hint,
  callback,
  field,
  errors,
  required,
  onChange,
}: {
  title: string;
  hint: string;
  callback: CallbackModel;
  field: 'callback' | 'failureCallback';
  errors: Record<string, string>;
  required: boolean;
  onChange: (callback: CallbackModel) => void;
}) {
  const set = (patch: Partial<CallbackModel>) => onChange({ ...callback, ...patch });
  const used = required || callback.url !== '' || callback.headers.length > 0;
  return (
    <Section title={title + (required ? ' (required)' : '')} collapsible open={used}>
      <TextField
        label={`${title} URL`}
        mono
        value={callback.url}
        placeholder="https://example.com/api/callback"
        spellCheck={false}
        error={errors[`${field}.url`]}
        hint={hint}
        onChange={(event) => set({ url: event.target.value })}
      />
      <div className="form-grid form-grid-4">
        <SelectField
          label={`${title} method`}
          value={callback.method}
          onChange={(event) => set({ method: event.target.value as CallbackModel['method'] })}
        >
          <option value="">POST (default)</option>
          {COMPOSER_METHODS.map((method) => (
            <option key={method}>{method}</option>
          ))}
        </SelectField>
        <TextField
          label={`${title} retries`}
          mono
          value={callback.retries}
          placeholder="as message"
          error={errors[`${field}.retries`]}
          onChange={(event) => set({ retries: event.target.value })}
        />
        <TextField
          label={`${title} retry delay`}
          mono
          value={callback.retryDelay}
          placeholder="as message"
          error={errors[`${field}.retryDelay`]}
          onChange={(event) => set({ retryDelay: event.target.value })}
        />
        <TextField
          label={`${title} timeout`}
          mono
          value={callback.timeout}
          placeholder="as message"
          error={errors[`${field}.timeout`]}
          onChange={(event) => set({ timeout: event.target.value })}
        />
      </div>
      <HeaderTable
        label={`${title} headers`}
        rows={callback.headers}
        onChange={(headers) => set({ headers })}
        errors={errors}
        errorPrefix={`${field}.headers`}
        hint={`Sent to the ${title.toLowerCase()} URL with each ${title.toLowerCase()} request.`}
      />
    </Section>
  );
}
