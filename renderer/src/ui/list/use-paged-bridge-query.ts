// A cursor-paged bridge list as one TanStack infinite query: the list procedures of every service answer
// `{<items>: [...], cursor?}` and take `cursor` back, so a screen names the procedure, its input and the
// field holding a page's items, and gets the loaded items plus "load more" / "reset".
//
//   const list = usePagedBridgeQuery('messages.dlq.list', { profileId, filters }, 'messages', {
//     enabled: !filterError,
//   });
//   list.items            // every loaded item, in page order
//   list.loadMore()       // next page (no-op while loading or at the end)
//   list.reset()          // back to the first page (Refresh)
import { type InfiniteData, type QueryKey, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { BridgeError } from '../../../../shared/bridge/errors';
import type { CallName, InputOf, OutputOf } from '../../../../shared/bridge/procedures';
import { useBridge } from '../../bridge/react';

/** Procedures that page with a cursor: `cursor` in the input, `cursor?` in the answer. */
export type PagedCallName = {
  [N in CallName]: InputOf<N> extends { cursor?: string }
    ? OutputOf<N> extends { cursor?: string }
      ? N
      : never
    : never;
}[CallName];

export interface PagedListOptions {
  enabled?: boolean;
  /** How long loaded pages count as fresh (Infinity: only Refresh or an invalidation reloads them). */
  staleTime?: number;
}

/** The query key of a paged list: `[name, 'pages', input]`, so invalidating `[name]` reaches it. */
export function pagedKey<N extends PagedCallName>(name: N, input: Omit<InputOf<N>, 'cursor'>): QueryKey {
  return [name, 'pages', input];
}

/** The fields of a page that hold its items. */
type ItemsField<Page> = { [K in keyof Page]: Page[K] extends readonly unknown[] ? K : never }[keyof Page];

export function usePagedBridgeQuery<N extends PagedCallName, F extends ItemsField<OutputOf<N>>>(
  name: N,
  input: Omit<InputOf<N>, 'cursor'>,
  itemsField: F,
  options: PagedListOptions = {},
) {
  type Item = OutputOf<N>[F] extends readonly (infer I)[] ? I : never;
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const inputKey = JSON.stringify(input);
  // The key follows the input's value, not its identity: screens may rebuild the input on every render.
  const key = useMemo(() => [name, 'pages', JSON.parse(inputKey) as unknown], [name, inputKey]);
  const query = useInfiniteQuery<
    OutputOf<N>,
    BridgeError,
    InfiniteData<OutputOf<N>>,
    QueryKey,
    string | undefined
  >({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      bridge.call(name, { ...(JSON.parse(inputKey) as object), cursor: pageParam } as InputOf<N>, signal),
    initialPageParam: undefined,
    getNextPageParam: (last) => (last as { cursor?: string }).cursor || undefined,
    enabled: options.enabled ?? true,
    staleTime: options.staleTime,
  });

  const items = useMemo(
    () => query.data?.pages.flatMap((page) => page[itemsField] as Item[]) ?? [],
    [query.data, itemsField],
  );
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const reset = useCallback(
    () => void queryClient.resetQueries({ queryKey: key, exact: true }),
    [queryClient, key],
  );

  return {
    /** The infinite query, with its key (what the waiting state needs to stop waiting for it). */
    query: Object.assign(query, { queryKey: key }),
    key,
    items,
    /** The first page has arrived (an empty list is then really empty). */
    loaded: query.data !== undefined,
    hasMore: Boolean(hasNextPage),
    loadingMore: isFetchingNextPage,
    /** Fetching anything other than the next page: the first page, a refresh. */
    refreshing: query.isFetching && !isFetchingNextPage,
    loadMore,
    reset,
  };
}
