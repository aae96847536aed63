// The Search tab (Redis Search, the SEARCH.* commands): pick an index by name (#/kv/search/<index>), see its
// definition, write a JSON filter (checked as it is typed, with the grammar main checks it with), and run it:
// the count, the matching documents in a table, more by OFFSET, and each key opens in the key browser; or
// aggregate them. The picker lists the database's indexes (SEARCH.LISTINDEXES) with their data type and
// aliases; a service that refuses that command gets the old suggestions: its aliases and the indexes opened
// before on this profile (main keeps those), with a quiet note why.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { KvSearchIndex } from '../../../../../shared/kv/search';
import { searchNameProblem } from '../../../../../shared/kv/search';
import type { ProfileView } from '../../../../../shared/profiles';
import type { KvSearchIndexEntry, KvSearchNames } from '../../../../../shared/bridge/procedures/kv/search';
import { useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useScreenRoute } from '../../../shell/screen-route';
import { Button } from '../../../ui/Button';
import { Fact } from '../../../ui/Fact';
import { Form } from '../../../ui/Form';
import { plural } from '../../../ui/format';
import { InAppLink } from '../../../ui/InAppLink';
import { SearchIcon } from '../../../ui/icons';
import { Callout, EmptyState } from '../../../ui/misc';
import { QueryView, RefreshButton } from '../../../ui/QueryView';
import '../kv.css';
import './search.css';
import { QueryPanel } from './QueryPanel';

export default function SearchTab({ params }: { params: string[] }) {
  return (
    <ActiveService service="kv">
      {(profile) => <SearchScreen profile={profile} index={params[0]} />}
    </ActiveService>
  );
}

function SearchScreen({ profile, index }: { profile: ProfileView; index?: string }) {
  return (
    <div className="page-body kv-search" data-testid="kv-search">
      {/* keyed by the index: the field shows the name opened, by link or history alike */}
      <IndexPicker key={`picker:${index ?? ''}`} profile={profile} index={index} />
      {index ? (
        <IndexView key={`index:${index}`} profile={profile} index={index} />
      ) : (
        <NoIndexYet profile={profile} />
      )}
    </div>
  );
}

/** The index field: a name typed or picked from the suggestions opens it (its own address). */
function IndexPicker({ profile, index }: { profile: ProfileView; index?: string }) {
  const screen = useScreenRoute();
  const names = useBridgeQuery('kv.search.names', { profileId: profile.id });
  const [draft, setDraft] = useState(index ?? '');
  const [problem, setProblem] = useState<string>();
  const listId = useId();
  const aliases = names.data?.aliases ?? [];
  const indexes = names.data?.indexes;
  const recent = indexes
    ? []
    : (names.data?.recent ?? []).filter((name) => !aliases.some((a) => a.alias === name));
  return (
    <Form
      className="toolbar kv-search-picker"
      onSubmit={() => {
        const name = draft.trim();
        const why = searchNameProblem(name);
        setProblem(why);
        if (!why) screen.open(name);
      }}
    >
      <label className="field-label" htmlFor={`${listId}-input`}>
        Index
      </label>
      <input
        id={`${listId}-input`}
        className="input input-mono kv-search-index-input"
        list={listId}
        value={draft}
        placeholder="Index or alias name"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${listId}-problem` : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          setProblem(undefined);
        }}
      />
      <datalist id={listId}>
        {indexes?.map(({ name, dataType }) => (
          <option key={`index:${name}`} value={name}>{`${dataType} index`}</option>
        ))}
        {aliases.map(({ alias, index: target }) => (
          <option key={`alias:${alias}`} value={alias}>{`alias of ${target}`}</option>
        ))}
        {recent.map((name) => (
          <option key={`recent:${name}`} value={name}>
            opened before
          </option>
        ))}
      </datalist>
      <Button type="submit" size="sm" variant="primary" icon={<SearchIcon />}>
        Open
      </Button>
      {problem ? (
        <span id={`${listId}-problem`} className="field-error" role="alert">
          {problem}
        </span>
      ) : null}
    </Form>
  );
}

/** Before an index is picked: the database's indexes to open, or (a service that cannot list them) the names to start from. */
function NoIndexYet({ profile }: { profile: ProfileView }) {
  // Asked again whenever the start is shown: an index made in the workbench meanwhile is listed.
  const names = useBridgeQuery('kv.search.names', { profileId: profile.id }, { refetchOnMount: 'always' });
  if (names.data?.indexes)
    return <IndexList names={names.data} indexes={names.data.indexes} refresh={names} />;
  return (
    <QueryView query={names} failure="Could not list the search indexes.">
      {(data) => <Suggestions names={data} />}
    </QueryView>
  );
}

/** The database's indexes (SEARCH.LISTINDEXES), each with its data type and the aliases pointing at it. */
function IndexList({
  names,
  indexes,
  refresh,
}: {
  names: KvSearchNames;
  indexes: KvSearchIndexEntry[];
  refresh: { isFetching: boolean; refetch: () => Promise<unknown> };
}) {
  const screen = useScreenRoute();
  if (indexes.length === 0)
    return (
      <div className="kv-search-empty">
        <EmptyState icon={<SearchIcon />} title="No search indexes yet">
          <p>
            This database has no search index (SEARCH.LISTINDEXES lists none). Create one with SEARCH.CREATE
            in the workbench, then pick it here.
          </p>
          <RefreshButton query={refresh} title="List the indexes again" />
        </EmptyState>
      </div>
    );
  const aliasesOf = new Map<string, string[]>();
  for (const { alias, index } of names.aliases)
    aliasesOf.set(index, [...(aliasesOf.get(index) ?? []), alias]);
  return (
    <section className="card kv-search-index-list" aria-labelledby="kv-search-indexes-title">
      <div className="card-header">
        <h2 id="kv-search-indexes-title">Indexes</h2>
        <span className="muted" data-testid="search-index-count">
          {names.indexesTruncated
            ? `The first ${plural(indexes.length, 'index', 'indexes')}: type a name for others`
            : plural(indexes.length, 'index', 'indexes')}
        </span>
        <RefreshButton query={refresh} title="List the indexes again" />
      </div>
      <div className="card-body">
        <table className="table kv-search-indexes" aria-label="Search indexes" data-testid="search-indexes">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Data type</th>
              <th scope="col">Aliases</th>
            </tr>
          </thead>
          <tbody>
            {indexes.map(({ name, dataType }) => (
              <tr key={name} data-testid="search-index-row" data-index={name}>
                <td className="mono">
                  <InAppLink
                    href={`#/kv/search/${encodeURIComponent(name)}`}
                    onOpen={() => screen.open(name)}
                  >
                    {name}
                  </InAppLink>
                </td>
                <td>
                  <span className="badge">{dataType || '—'}</span>
                </td>
                <td className="mono">
                  {(aliasesOf.get(name) ?? []).map((alias, i) => (
                    <span key={alias}>
                      {i > 0 ? ', ' : null}
                      <InAppLink
                        href={`#/kv/search/${encodeURIComponent(alias)}`}
                        onOpen={() => screen.open(alias)}
                        aria-label={`${alias} (alias of ${name})`}
                      >
                        {alias}
                      </InAppLink>
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A service without SEARCH.LISTINDEXES: its aliases and the indexes opened before, and why. */
function Suggestions({ names }: { names: KvSearchNames }) {
  const screen = useScreenRoute();
  const aliases = names.aliases;
  const recent = names.recent;
  return (
    <div className="kv-search-empty">
      <EmptyState icon={<SearchIcon />} title="Pick an index">
        <p>
          Type the name of a search index or alias above. The suggestions are the service’s aliases
          (SEARCH.LISTALIASES) and the indexes opened before on this profile.
        </p>
        {names.indexesError ? (
          <p className="muted kv-search-quiet" data-testid="search-indexes-refused">
            This service does not list its indexes: {names.indexesError}
          </p>
        ) : null}
        {names.aliasesError ? <p>The service did not list its aliases: {names.aliasesError}</p> : null}
        {recent.length + aliases.length > 0 ? (
          <div className="kv-search-starts">
            {recent.length > 0 ? (
              <NameButtons title="Opened before" names={recent} onOpen={(name) => screen.open(name)} />
            ) : null}
            {aliases.length > 0 ? (
              <NameButtons
                title="Aliases"
                names={aliases.map((a) => a.alias)}
                targets={new Map(aliases.map((a) => [a.alias, a.index]))}
                onOpen={(name) => screen.open(name)}
              />
            ) : null}
          </div>
        ) : null}
      </EmptyState>
    </div>
  );
}

function NameButtons({
  title,
  names,
  targets,
  onOpen,
}: {
  title: string;
  names: string[];
  /** The index each alias points at. */
  targets?: ReadonlyMap<string, string>;
  onOpen: (name: string) => void;
}) {
  return (
    <div className="kv-search-names" role="group" aria-label={title}>
      <span className="section-title">{title}</span>
      {names.map((name) => (
        <Button key={name} size="sm" onClick={() => onOpen(name)}>
          <span className="mono">{name}</span>
          {targets?.has(name) ? <span className="muted"> → {targets.get(name)}</span> : null}
        </Button>
      ))}
    </div>
  );
}

/** An index's definition beside its query form and results; a clear message when there is no such index. */
function IndexView({ profile, index }: { profile: ProfileView; index: string }) {
  const queryClient = useQueryClient();
  const described = useBridgeQuery('kv.search.describe', { profileId: profile.id, index });
  // Main noted the index as opened (or forgot a missing one): the suggestions change with it. A first
  // fetch of them still in flight may have been asked before: it is cancelled and asked again (an
  // invalidation alone would join it, and its answer would stay fresh without the index).
  const answered = described.data;
  useEffect(() => {
    if (!answered) return;
    const queryKey = ['kv.search.names'];
    void queryClient.cancelQueries({ queryKey }).then(() => queryClient.invalidateQueries({ queryKey }));
  }, [answered, queryClient]);
  return (
    <QueryView query={described} failure={`Could not read the index “${index}”.`}>
      {(result) =>
        result.exists ? (
          <div className="kv-search-body">
            <Definition index={result.index} openedAs={index} />
            <QueryPanel profile={profile} index={index} definition={result.index} />
          </div>
        ) : (
          <Callout tone="warning" title={`No index or alias named “${index}”.`}>
            SEARCH.DESCRIBE found nothing by this name on this database. Check the name (aliases count too),
            or create the index with SEARCH.CREATE in the workbench.
          </Callout>
        )
      }
    </QueryView>
  );
}

/** `openedAs`: the name typed, an alias when it is not the index's own. */
function Definition({ index, openedAs }: { index: KvSearchIndex; openedAs: string }) {
  return (
    <section className="card kv-search-definition" aria-labelledby="kv-search-definition-title">
      <div className="card-header">
        <h2 id="kv-search-definition-title">Definition</h2>
      </div>
      <div className="card-body stack">
        <dl className="kv-list" data-testid="search-definition">
          <Fact label="Name" mono value={index.name} />
          {openedAs !== index.name ? <Fact label="Alias" mono value={openedAs} /> : null}
          <Fact label="Data type" value={index.dataType.toUpperCase()} />
          <Fact label="Prefixes" mono value={index.prefixes.join('  ')} />
          <Fact label="Language" value={index.language} />
        </dl>
        {index.fields.length ? (
          <table className="table kv-search-schema" aria-label="Schema fields" data-testid="search-schema">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Type</th>
                <th scope="col">Options</th>
              </tr>
            </thead>
            <tbody>
              {index.fields.map((field) => (
                <tr key={field.name}>
                  <td className="mono">{field.name}</td>
                  <td className="mono">{field.type}</td>
                  <td className="mono muted">{fieldOptions(field) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">The schema has no fields.</p>
        )}
      </div>
    </section>
  );
}

function fieldOptions(field: KvSearchIndex['fields'][number]): string {
  return [
    field.fast ? 'FAST' : '',
    field.noTokenize ? 'NOTOKENIZE' : '',
    field.noStem ? 'NOSTEM' : '',
    field.from ? `FROM ${field.from}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
