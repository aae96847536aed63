// A callback or failure callback: its URL, method, own retry settings and headers.
import { type CallbackModel, COMPOSER_METHODS } from '../../../../../../shared/composer/model';
import { BoundTextField, SelectField } from '../../../../ui/fields';
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
  const form = { values: callback, set, error: (name: string) => errors[`${field}.${name}`] };
  const used = required || callback.url !== '' || callback.headers.length > 0;
  return (
    <Section title={title + (required ? ' (required)' : '')} collapsible open={used}>
      <BoundTextField
        form={form}
        name="url"
        label={`${title} URL`}
        mono
        placeholder="https://example.com/api/callback"
        spellCheck={false}
        hint={hint}
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
        <BoundTextField form={form} name="retries" label={`${title} retries`} mono placeholder="as message" />
        <BoundTextField
          form={form}
          name="retryDelay"
          label={`${title} retry delay`}
          mono
          placeholder="as message"
        />
        <BoundTextField form={form} name="timeout" label={`${title} timeout`} mono placeholder="as message" />
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
