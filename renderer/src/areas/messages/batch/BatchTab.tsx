// The batch builder: a list of messages built with the composer's form, reorderable, validated before
// sending, sent as one POST /v2/batch. Results stay aligned with the items: message ids per item (one per
// endpoint for a URL group), the service's error in place for a refused item.
import { useCallback, useState } from 'react';
import { BridgeError } from '../../../../../shared/bridge/errors';
import {
  type BatchItemOutcome,
  MAX_BATCH_ITEMS,
} from '../../../../../shared/bridge/procedures/messages/batch';
import { type ComposerModel, describeDestination, emptyComposer } from '../../../../../shared/composer/model';
import { buildBatchRequest } from '../../../../../shared/composer/request';
import { type Validation, validateComposer } from '../../../../../shared/composer/validate';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { Button } from '../../../ui/Button';
import { ChevronDownIcon, CopyIcon, DownloadIcon, PlusIcon, SendIcon } from '../../../ui/icons';
import { RemoveRowButton } from '../../../ui/RemoveRowButton';
import { Badge, Callout, Spinner } from '../../../ui/misc';
import { plural } from '../../../ui/format';
import { AccessHelp } from '../../../ui/service-access';
import { toast } from '../../../ui/toast';
import { ComposerForm } from '../composer/ComposerForm';
import { ImportCurlDialog } from '../composer/ImportCurlDialog';
import { RequestPreview } from '../composer/RequestPreview';
import { FOLLOW_LIMIT, SentMessages } from '../composer/SendResult';
import { fieldLabel } from '../composer/prefill';
import { useDraft } from '../composer/use-draft';
import { useNow } from '../../../ui/use-now';
import '../composer/composer.css';

const firstBatch = () => [emptyComposer()];

/** Moves element `from` to `to` in a copy of the list. */
function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

export default function BatchTab(_props: { params: string[] }) {
  return <ActiveService gate="profile">{(profile) => <Batch profile={profile} />}</ActiveService>;
}

function Batch({ profile }: { profile: ProfileView }) {
  const draft = useDraft(profile.id, 'batch', firstBatch);
  const { value: items, update, loaded, flush: flushDraft } = draft;
  const [selected, setSelected] = useState(0);
  const [showAll, setShowAll] = useState(false);
  // Aligned with `items`; reordering moves a result with its item.
  const [results, setResults] = useState<(BatchItemOutcome | undefined)[]>([]);
  const [failure, setFailure] = useState<BridgeError | Error | null>(null);
  const [importing, setImporting] = useState(false);
  const now = useNow();
  const setItems = useCallback((next: ComposerModel[]) => update(() => next), [update]);

  const validations: Validation[] = items.map((item) => validateComposer(item, now));
  const invalid = validations.map((v) => Object.keys(v.errors).length);
  const problemCount = invalid.filter((count) => count > 0).length;
  const current = Math.min(selected, items.length - 1);
  // Items the service answered for; an item added after the send has no outcome and is not counted.
  const sent = results.filter((r): r is BatchItemOutcome => r !== undefined);
  const sentCount = results.reduce((sum, r) => sum + (r?.ok ? r.messages.length : 0), 0);

  const send = useBridgeMutation('messages.batch', {
    onSuccess: (outcome) => {
      setResults(outcome.items);
      setFailure(null);
    },
    onError: (error) => {
      setResults([]);
      setFailure(error);
    },
  });

  if (!loaded) {
    return (
      <div className="page-body">
        <Spinner />
      </div>
    );
  }

  const edit = (
    next: ComposerModel[],
    nextResults: (BatchItemOutcome | undefined)[],
    nextSelected: number,
  ) => {
    setItems(next);
    setResults(nextResults);
    setSelected(Math.max(0, Math.min(nextSelected, next.length - 1)));
  };
  const move = (from: number, to: number) => edit(moved(items, from, to), moved(results, from, to), to);
  const remove = (index: number) =>
    edit(
      items.filter((_, i) => i !== index),
      results.filter((_, i) => i !== index),
      index > current ? current : current - 1,
    );
  const duplicate = (index: number) =>
    edit(
      [
        ...items.slice(0, index + 1),
        structuredClone(items[index] as ComposerModel),
        ...items.slice(index + 1),
      ],
      [...results.slice(0, index + 1), undefined, ...results.slice(index + 1)],
      index + 1,
    );
  const add = () => {
    // A new item starts from the selected one's destination: batches usually vary the body.
    const base = items[current];
    const fresh = emptyComposer(
      base
        ? { destinationKind: base.destinationKind, url: base.url, group: base.group, queue: base.queue }
        : {},
    );
    edit([...items, fresh], [...results, undefined], items.length);
  };
  const trySend = () => {
    setShowAll(true);
    flushDraft();
    if (problemCount > 0 || send.isPending) {
      const first = invalid.findIndex((count) => count > 0);
      if (first >= 0) setSelected(first);
      return;
    }
    setResults([]);
    setFailure(null);
    send.mutate({ profileId: profile.id, items });
  };

  const selectedItem = items[current] as ComposerModel;
  const serverFields =
    failure instanceof BridgeError && failure.code === 'INVALID_INPUT' ? failure.fields : undefined;

  return (
    <div className="page-body">
      <div className="batch-layout">
        <div className="stack">
          <div className="row row-wrap">
            <h2>Items</h2>
            <span className="faint nowrap">
              {items.length} of at most {MAX_BATCH_ITEMS}
            </span>
            <span className="spacer" />
            <Button
              size="sm"
              icon={<DownloadIcon />}
              disabled={items.length >= MAX_BATCH_ITEMS}
              onClick={() => setImporting(true)}
            >
              Import curl
            </Button>
            <Button size="sm" icon={<PlusIcon />} disabled={items.length >= MAX_BATCH_ITEMS} onClick={add}>
              Add item
            </Button>
          </div>
          <ol className="batch-items" aria-label="Batch items">
            {items.map((item, index) => {
              const result = results[index];
              const errors = showAll ? invalid[index] : 0;
              return (
                <li
                  key={index}
                  className={errors || result?.ok === false ? 'batch-item has-error' : 'batch-item'}
                  aria-current={index === current}
                >
                  <div className="batch-item-head">
                    <button type="button" className="batch-item-select" onClick={() => setSelected(index)}>
                      {/* "Item 2 POST https://…": the row says what it shows, the number as what it is. */}
                      <span className="visually-hidden">Item </span>
                      <span className="batch-item-index">{index + 1}</span>
                      <span className="batch-item-method">
                        {item.destinationKind === 'llm' ? 'POST' : item.method}
                        {item.destinationKind === 'queue' ? ' · enqueue' : ''}
                      </span>
                      <span className="batch-item-dest" title={describeDestination(item)}>
                        {describeDestination(item)}
                      </span>
                    </button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move item ${index + 1} up`}
                      disabled={index === 0}
                      icon={<ChevronDownIcon style={{ transform: 'rotate(180deg)' }} />}
                      onClick={() => move(index, index - 1)}
                    />
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move item ${index + 1} down`}
                      disabled={index === items.length - 1}
                      icon={<ChevronDownIcon />}
                      onClick={() => move(index, index + 1)}
                    />
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Duplicate item ${index + 1}`}
                      disabled={items.length >= MAX_BATCH_ITEMS}
                      icon={<CopyIcon />}
                      onClick={() => duplicate(index)}
                    />
                    <RemoveRowButton
                      label={`Remove item ${index + 1}`}
                      disabled={items.length === 1}
                      onClick={() => remove(index)}
                    />
                  </div>
                  {errors ? (
                    <span className="field-error" role="alert">
                      {errors} problem{errors === 1 ? '' : 's'}:{' '}
                      {Object.values(validations[index]?.errors ?? {})[0]}
                    </span>
                  ) : null}
                  {result ? (
                    <div className="batch-item-result" data-testid={`batch-result-${index + 1}`}>
                      {result.ok ? (
                        <>
                          <Badge tone="success">
                            {result.fanOut
                              ? `${plural(result.messages.length, 'message')} (group)`
                              : 'accepted'}
                          </Badge>
                          <SentMessages
                            profileId={profile.id}
                            messages={result.messages}
                            fanOut={result.fanOut}
                            follow={sentCount <= FOLLOW_LIMIT}
                          />
                        </>
                      ) : (
                        <Callout tone="danger" title="Refused:">
                          {result.error}
                        </Callout>
                      )}
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <div className="row">
            <Button
              variant="primary"
              icon={<SendIcon />}
              busy={send.isPending}
              disabled={profile.readOnly}
              onClick={trySend}
            >
              Send batch ({items.length})
            </Button>
            {showAll && problemCount > 0 ? (
              <span className="field-error" role="alert">
                Fix {plural(problemCount, 'item')} first: nothing is sent until all are valid.
              </span>
            ) : null}
          </div>
          {profile.readOnly ? (
            <Callout tone="warning" title="Read-only profile.">
              Sending is refused for {profile.name}; the back end enforces it.
            </Callout>
          ) : null}
          {failure ? (
            <Callout tone="danger" title="The batch was not sent.">
              {failure instanceof BridgeError && failure.status ? `HTTP ${failure.status}: ` : ''}
              {errorMessage(failure)}
              {serverFields
                ? ` (${Object.entries(serverFields)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join('; ')})`
                : ''}
              <AccessHelp error={failure} />
            </Callout>
          ) : null}
          {sent.length > 0 ? (
            <p className="muted" data-testid="batch-summary">
              {sent.filter((r) => r.ok).length} of {plural(sent.length, 'item')} accepted
              {results.some((r) => r?.ok === false)
                ? '; refused items show the service’s reason in place.'
                : '.'}
            </p>
          ) : null}
        </div>
        <div className="stack">
          <h2>Item {current + 1}</h2>
          <ComposerForm
            key={current}
            model={selectedItem}
            onChange={(next) => setItems(items.map((item, i) => (i === current ? next : item)))}
            validation={validations[current] as Validation}
            showAll={showAll}
            profileId={profile.id}
          />
          <RequestPreview
            request={problemCount === 0 ? buildBatchRequest(items) : null}
            problems={invalid.reduce((sum, count) => sum + count, 0)}
            problemList={validations.flatMap((v, index) =>
              Object.entries(v.errors).map(
                ([field, message]) =>
                  [`Item ${index + 1}: ${fieldLabel(field)}`, message] as [string, string],
              ),
            )}
            profile={profile}
            target={{ kind: 'batch', items }}
          />
        </div>
      </div>
      <ImportCurlDialog
        open={importing}
        onClose={() => setImporting(false)}
        onImport={(imported) => {
          edit([...items, imported.model], [...results, undefined], items.length);
          toast.success(
            `Imported as item ${items.length + 1}`,
            imported.notes.length > 0 ? `${imported.notes.join('; ')}.` : undefined,
          );
        }}
      />
    </div>
  );
}
