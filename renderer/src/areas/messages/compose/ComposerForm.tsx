// The message form shared by the composer, each batch item and the webhook builder: destination, request,
// and every delivery option with its rule written where it is set. Controlled: the model lives in the tab.
import { lazy, type ReactNode, Suspense, useId } from 'react';
import {
  type CallbackModel,
  COMPOSER_METHODS,
  type ComposerModel,
  type DestinationKind,
} from '../../../../../shared/composer/model';
import { formatWait, retryPreview } from '../../../../../shared/composer/retry-preview';
import { isJsonContentType, type Validation } from '../../../../../shared/composer/validate';
import { DEDUP_WINDOW_MINUTES, DEFAULT_RETRIES } from '../../../../../shared/messages/limits';
import { useBridgeQuery } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { Field, Segmented, SelectField, Switch, TextField } from '../../../ui/fields';
import { RefreshIcon } from '../../../ui/icons';
import { formatUtc, fromLocalInput, toLocalInput } from './local-time';
import { HeaderTable } from './HeaderTable';
import './composer.css';

const CodeEditor = lazy(() => import('../../../ui/CodeEditor'));

const KIND_OPTIONS: { value: DestinationKind; label: string }[] = [
  { value: 'url', label: 'URL' },
  { value: 'group', label: 'URL group' },
  { value: 'queue', label: 'Queue' },
  { value: 'llm', label: 'api/llm' },
];

const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
];

export interface ComposerFormProps {
  model: ComposerModel;
  onChange: (model: ComposerModel) => void;
  validation: Validation;
  /** Show "is empty" errors too (after a send attempt); other errors show as the user types. */
  showAll: boolean;
  profileId: string;
  /** The webhook builder has no body or Content-Type: whoever calls the URL sends those. */
  variant?: 'message' | 'webhook';
}

export function ComposerForm({
  model,
  onChange,
  validation,
  showAll,
  profileId,
  variant = 'message',
}: ComposerFormProps) {
  const set = (patch: Partial<ComposerModel>) => onChange({ ...model, ...patch });
  const error = (field: string) => {
    const message = validation.errors[field];
    return message && (showAll || !/is empty$/.test(message)) ? message : undefined;
  };
  const shownErrors = Object.fromEntries(
    Object.keys(validation.errors).flatMap((key) => {
      const message = error(key);
      return message ? [[key, message]] : [];
    }),
  );
  const warning = (field: string) => validation.warnings[field];
  const target = model.destinationKind === 'queue' ? model.queueTarget : model.destinationKind;

  return (
    <div className="composer-form">
      <Section title="Destination">
        <div className="field">
          <span className="field-label">Send to</span>
          <Segmented
            label="Send to"
            value={model.destinationKind}
            options={KIND_OPTIONS}
            onChange={(kind) => set({ destinationKind: kind })}
          />
          <span className="field-hint">
            {model.destinationKind === 'url' && 'Published now (or after the delay) to one URL.'}
            {model.destinationKind === 'group' && 'One message per endpoint of the group (fan-out).'}
            {model.destinationKind === 'queue' &&
              'Enqueued: delivered in order, one after another (the queue’s parallelism). An unknown queue is created.'}
            {model.destinationKind === 'llm' &&
              'The message goes to the LLM API; the answer is delivered to the callback, which is required.'}
          </span>
        </div>
        {model.destinationKind === 'queue' ? (
          <div className="form-grid">
            <DestinationPicker
              kind="queue"
              profileId={profileId}
              value={model.queue}
              onChange={(queue) => set({ queue })}
              error={error('queue')}
            />
            <div className="field">
              <span className="field-label">Queue target</span>
              <Segmented
                label="Queue target"
                value={model.queueTarget}
                options={[
                  { value: 'url', label: 'URL' },
                  { value: 'group', label: 'URL group' },
                ]}
                onChange={(queueTarget) => set({ queueTarget })}
              />
            </div>
          </div>
        ) : null}
        {target === 'url' ? (
          <TextField
            label="Destination URL"
            mono
            value={model.url}
            placeholder="https://example.com/api/webhook"
            spellCheck={false}
            error={error('url')}
            hint="http:// or https://. Its own query string is kept."
            onChange={(event) => set({ url: event.target.value })}
          />
        ) : null}
        {target === 'group' ? (
          <DestinationPicker
            kind="group"
            profileId={profileId}
            value={model.group}
            onChange={(group) => set({ group })}
            error={error('group')}
          />
        ) : null}
      </Section>

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
          {variant === 'message' ? (
            <TextField
              label="Content-Type"
              mono
              list="composer-content-types"
              value={model.contentType}
              error={error('contentType')}
              hint="Delivered with the body."
              onChange={(event) => set({ contentType: event.target.value })}
            />
          ) : null}
          <datalist id="composer-content-types">
            {CONTENT_TYPES.map((type) => (
              <option key={type} value={type} />
            ))}
          </datalist>
        </div>
        {variant === 'message' ? (
          <BodyField model={model} onChange={(body) => set({ body })} warning={warning('body')} />
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

      <Section title="Delivery">
        <div className="form-grid">
          <TextField
            label="Delay"
            mono
            value={model.delay}
            placeholder="e.g. 10s, 5m, 2h, 1d"
            error={error('delay')}
            hint={warning('delay') ?? 'Units s, m, h, d; combine them as 1h30m. Up to 7d on the free plan.'}
            onChange={(event) => set({ delay: event.target.value })}
          />
          <NotBeforeField
            value={model.notBefore}
            onChange={(notBefore) => set({ notBefore })}
            error={error('notBefore')}
            warning={warning('notBefore')}
          />
          <TextField
            label="Retries"
            mono
            inputMode="numeric"
            value={model.retries}
            placeholder={`${DEFAULT_RETRIES} (default)`}
            error={error('retries')}
            hint={retriesHint(model.retries)}
            onChange={(event) => set({ retries: event.target.value })}
          />
          <TextField
            label="Timeout"
            mono
            value={model.timeout}
            placeholder="plan’s maximum"
            error={error('timeout')}
            hint="How long one delivery may take (a bare number is seconds). Can only shorten your plan’s limit."
            onChange={(event) => set({ timeout: event.target.value })}
          />
          <div className="full">
            <RetryDelayField
              retries={model.retries}
              value={model.retryDelay}
              onChange={(retryDelay) => set({ retryDelay })}
              error={error('retryDelay')}
            />
          </div>
        </div>
      </Section>

      <CallbackSection
        title="Callback"
        hint="Called after every delivery attempt with the destination’s response (status, headers, base64 body)."
        callback={model.callback}
        field="callback"
        errors={shownErrors}
        required={model.destinationKind === 'llm'}
        onChange={(callback) => set({ callback })}
      />
      <CallbackSection
        title="Failure callback"
        hint="Called once when the message has failed for good (after the last retry), with its DLQ id."
        callback={model.failureCallback}
        field="failureCallback"
        errors={shownErrors}
        required={false}
        onChange={(failureCallback) => set({ failureCallback })}
      />

      <Section
        title="Deduplication and labels"
        collapsible
        open={model.dedupMode !== 'none' || model.labels !== ''}
      >
        <div className="field">
          <span className="field-label">Deduplication</span>
          <Segmented
            label="Deduplication"
            value={model.dedupMode}
            options={[
              { value: 'none', label: 'None' },
              { value: 'id', label: 'By id' },
              { value: 'content', label: 'By content' },
            ]}
            onChange={(dedupMode) => set({ dedupMode })}
          />
          <span className="field-hint">
            A duplicate within {DEDUP_WINDOW_MINUTES} minutes is accepted but not delivered again: the answer
            is HTTP 202 with the first message’s id and “deduplicated”.
            {model.dedupMode === 'content'
              ? ' Content means destination, body, Content-Type and forwarded headers.'
              : ''}
          </span>
        </div>
        {model.dedupMode === 'id' ? (
          <TextField
            label="Deduplication id"
            mono
            value={model.dedupId}
            placeholder="e.g. order-4711"
            error={error('dedupId')}
            onChange={(event) => set({ dedupId: event.target.value })}
          />
        ) : null}
        <TextField
          label="Labels"
          value={model.labels}
          placeholder="e.g. billing, nightly"
          error={error('labels')}
          hint="Comma-separated. Logs and the DLQ can be filtered by label."
          onChange={(event) => set({ labels: event.target.value })}
        />
      </Section>

      <Section title="Flow control" collapsible open={model.flowControlKey !== ''}>
        <div className="form-grid form-grid-4">
          <TextField
            label="Key"
            mono
            value={model.flowControlKey}
            placeholder="e.g. tenant-42"
            error={error('flowControlKey')}
            onChange={(event) => set({ flowControlKey: event.target.value })}
          />
          <TextField
            label="Parallelism"
            mono
            inputMode="numeric"
            value={model.flowControlParallelism}
            placeholder="—"
            error={error('flowControlParallelism')}
            onChange={(event) => set({ flowControlParallelism: event.target.value })}
          />
          <TextField
            label="Rate"
            mono
            inputMode="numeric"
            value={model.flowControlRate}
            placeholder="—"
            error={error('flowControlRate')}
            onChange={(event) => set({ flowControlRate: event.target.value })}
          />
          <TextField
            label="Period"
            mono
            value={model.flowControlPeriod}
            placeholder="1s"
            error={error('flowControlPeriod')}
            onChange={(event) => set({ flowControlPeriod: event.target.value })}
          />
        </div>
        <span className="field-hint">
          Messages with the same key share the limits across URLs: at most <em>parallelism</em> in flight, at
          most <em>rate</em> started per <em>period</em> (default 1s, at most 7d). Over the limit they wait;
          they are not rejected.
        </span>
      </Section>
    </div>
  );
}

function retriesHint(value: string): string {
  const text = value.trim();
  if (text === '')
    return `Default ${DEFAULT_RETRIES}: up to 1 + ${DEFAULT_RETRIES} = ${1 + DEFAULT_RETRIES} deliveries.`;
  if (!/^\d+$/.test(text)) return 'Up to 1 + N deliveries.';
  const n = Number(text);
  return `Up to 1 + ${n} = ${1 + n} deliver${n === 0 ? 'y' : 'ies'}; then the message goes to the DLQ.`;
}

function Section({
  title,
  children,
  collapsible,
  open,
}: {
  title: string;
  children: ReactNode;
  collapsible?: boolean;
  open?: boolean;
}) {
  if (!collapsible) {
    return (
      <section className="composer-section" aria-label={title}>
        <h3 className="section-title">{title}</h3>
        {children}
      </section>
    );
  }
  return (
    <details className="composer-section" open={open} aria-label={title}>
      <summary className="section-title">{title}</summary>
      <div className="composer-section-body">{children}</div>
    </details>
  );
}

function DestinationPicker({
  kind,
  profileId,
  value,
  onChange,
  error,
}: {
  kind: 'group' | 'queue';
  profileId: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const listId = useId();
  const lists = useBridgeQuery('messages.destinations', { profileId }, { staleTime: 30_000 });
  const options =
    kind === 'group'
      ? (lists.data?.groups ?? []).map((g) => ({
          name: g.name,
          note: `${g.endpoints} endpoint${g.endpoints === 1 ? '' : 's'}`,
        }))
      : (lists.data?.queues ?? []).map((q) => ({
          name: q.name,
          note: `${q.paused ? 'paused, ' : ''}lag ${q.lag}, parallelism ${q.parallelism}`,
        }));
  const known = options.find((option) => option.name === value.trim());
  const hint = lists.error
    ? `Could not load the list: ${lists.error.message}`
    : known
      ? known.note
      : options.length === 0 && lists.isSuccess
        ? kind === 'group'
          ? 'No URL groups yet: create one under URL groups.'
          : 'No queues yet: type a name and the queue is created with parallelism 1.'
        : kind === 'queue' && value.trim()
          ? 'A new queue: created with parallelism 1.'
          : `${options.length} ${kind === 'group' ? 'URL group' : 'queue'}${options.length === 1 ? '' : 's'} on this profile.`;
  return (
    <div className="destination-picker">
      <TextField
        label={kind === 'group' ? 'URL group' : 'Queue'}
        mono
        list={listId}
        value={value}
        placeholder={kind === 'group' ? 'pick or type a group name' : 'pick or type a queue name'}
        spellCheck={false}
        error={error}
        hint={hint}
        onChange={(event) => onChange(event.target.value)}
      />
      <datalist id={listId}>
        {options.map((option) => (
          <option key={option.name} value={option.name}>
            {option.note}
          </option>
        ))}
      </datalist>
      <Button
        size="sm"
        variant="ghost"
        icon={<RefreshIcon />}
        aria-label={`Reload the ${kind === 'group' ? 'URL group' : 'queue'} list`}
        busy={lists.isFetching}
        onClick={() => void lists.refetch()}
      />
    </div>
  );
}

function BodyField({
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

function NotBeforeField({
  value,
  onChange,
  error,
  warning,
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  error?: string;
  warning?: string;
}) {
  return (
    <Field
      label="Earliest delivery (local time)"
      error={error}
      hint={
        warning ??
        (value !== null
          ? `Sent as Upstash-Not-Before: ${value} (${formatUtc(value)}). Wins over the delay.`
          : 'An exact time instead of a delay; if both are set, this one wins.')
      }
    >
      {({ id, describedBy, invalid }) => (
        <div className="row">
          <input
            id={id}
            type="datetime-local"
            step={1}
            className="input"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={value === null ? '' : toLocalInput(value)}
            onChange={(event) => onChange(fromLocalInput(event.target.value))}
          />
          {value !== null ? (
            <Button size="sm" variant="ghost" onClick={() => onChange(null)}>
              Clear
            </Button>
          ) : null}
        </div>
      )}
    </Field>
  );
}

function RetryDelayField({
  retries,
  value,
  onChange,
  error,
}: {
  retries: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const preview = retryPreview(/^\d+$/.test(retries.trim()) ? retries : '', value);
  return (
    <Field
      label="Retry delay expression"
      error={error}
      hint="Milliseconds before each retry; `retried` is 0 for the first retry. Functions: pow, exp, sqrt, abs, floor, ceil, round, min, max."
    >
      {({ id, describedBy, invalid }) => (
        <div className="stack" style={{ gap: 6 }}>
          <input
            id={id}
            className="input input-mono"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={value}
            spellCheck={false}
            placeholder="empty = default backoff, e.g. pow(2, retried) * 1000"
            onChange={(event) => onChange(event.target.value)}
          />
          {preview.ok ? (
            <div className="retry-preview" data-testid="retry-preview">
              <span className="muted">{preview.usesDefault ? 'Default backoff:' : 'Retries after:'}</span>
              {preview.steps.length === 0 ? <span className="muted">no retries</span> : null}
              {preview.steps.map((step) => (
                <span
                  key={step.retry}
                  className="retry-step"
                  title={`retry ${step.retry}: ${formatWait(step.totalMs)} after the first failure`}
                >
                  #{step.retry} {formatWait(step.waitMs)}
                  {step.source === 'fallback' ? ' (odd value → default)' : ''}
                </span>
              ))}
              {preview.deliveries - 1 > preview.steps.length ? <span className="muted">…</span> : null}
            </div>
          ) : null}
        </div>
      )}
    </Field>
  );
}

function CallbackSection({
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
