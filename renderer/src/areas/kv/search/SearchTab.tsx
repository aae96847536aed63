// The Search tab (Redis Search, the SEARCH.* commands): pick an index by name (#/kv/search/<index>), see its
// definition, write a JSON filter (checked as it is typed, with the grammar main checks it with), and run it:
// the count, the matching documents in a table, more by OFFSET, and each key opens in the key browser. The
// service has no command that lists indexes, so the name field suggests its aliases and the indexes opened
// before on this profile (main keeps those).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { KvSearchIndex } from '../../../../../shared/kv/search';
import { searchNameProblem } from '../../../../../shared/kv/search';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useScreenRoute } from '../../../shell/screen-route';
import { Button } from '../../../ui/Button';
import { Fact } from '../../../ui/Fact';
import { Form } from '../../../ui/Form';
import { SearchIcon } from '../../../ui/icons';
import { Callout, EmptyState } from '../../../ui/misc';
import { QueryView } from '../../../ui/QueryView';
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
  const recent = (names.data?.recent ?? []).filter((name) => !aliases.some((a) => a.alias === name));
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

/** Before an index is picked: how to pick one, and the names to start from. */
function NoIndexYet({ profile }: { profile: ProfileView }) {
  const screen = useScreenRoute();
  const names = useBridgeQuery('kv.search.names', { profileId: profile.id });
  const aliases = names.data?.aliases ?? [];
  const recent = names.data?.recent ?? [];
  return (
    <div className="kv-search-empty">
      <EmptyState icon={<SearchIcon />} title="Pick an index">
        <p>
          Type the name of a search index or alias above. Redis Search has no command that lists indexes, so
          the suggestions are the service’s aliases (SEARCH.LISTALIASES) and the indexes opened before on this
          profile.
        </p>
        {names.data?.aliasesError ? (
          <p>The service did not list its aliases: {names.data.aliasesError}</p>
        ) : null}
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
