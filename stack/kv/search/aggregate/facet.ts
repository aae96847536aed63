// $facet: the tree of FACET paths below `path`, `depth` levels deep, each node with the number of documents
// under it. FACET values are paths such as "/category/books/fiction".
import type { SearchDocument } from '../types';
import type { FacetRequest } from './request';
import { OutObject } from './reply';
import { valuesOf } from './values';

interface FacetNode {
  path: string;
  docs: Set<SearchDocument>;
  children: Map<string, FacetNode>;
}

function node(path: string): FacetNode {
  return { path, docs: new Set(), children: new Map() };
}

/** The path's segments below `root` ("/a/b/c" below "/a" is ["b", "c"]); undefined when it is not below it. */
function below(root: string, path: string): string[] | undefined {
  if (root === '/') return path.startsWith('/') && path.length > 1 ? path.slice(1).split('/') : undefined;
  if (!path.startsWith(`${root}/`)) return undefined;
  return path.slice(root.length + 1).split('/');
}

export function facet(request: FacetRequest, docs: readonly SearchDocument[]): OutObject {
  const root = node(request.path);
  for (const doc of docs) {
    for (const value of valuesOf(doc, request.field.path)) {
      if (typeof value !== 'string') continue;
      const segments = below(request.path, value.replace(/\/+$/, ''));
      if (segments === undefined) continue;
      let at = root;
      for (const segment of segments.slice(0, request.depth)) {
        const path = at.path === '/' ? `/${segment}` : `${at.path}/${segment}`;
        let child = at.children.get(segment);
        if (child === undefined) at.children.set(segment, (child = node(path)));
        child.docs.add(doc);
        at = child;
      }
    }
  }
  const { children, sumOtherDocCount } = level(request, root, 1);
  return new OutObject()
    .set('path', request.path)
    .set('sumOtherDocCount', sumOtherDocCount)
    .set('children', children);
}

/** A node's children as the reply lists them: ordered, the smallest dropped, and their own children below. */
function level(
  request: FacetRequest,
  parent: FacetNode,
  depth: number,
): { children: OutObject[]; sumOtherDocCount: number } {
  const sign = request.order.descending ? -1 : 1;
  const byPath = (a: FacetNode, b: FacetNode): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const nodes = [...parent.children.values()]
    .filter((child) => child.docs.size >= request.minDocCount)
    .sort((a, b) =>
      request.order.by === 'count' ? sign * (a.docs.size - b.docs.size) || byPath(a, b) : sign * byPath(a, b),
    );
  let sumOtherDocCount = 0;
  for (const dropped of nodes.slice(request.size)) sumOtherDocCount += dropped.docs.size;
  const children = nodes.slice(0, request.size).map((child) => {
    const out = new OutObject().set('path', child.path).set('docCount', child.docs.size);
    if (depth >= request.depth) return out.set('sumOtherDocCount', 0);
    const below = level(request, child, depth + 1);
    return out.set('sumOtherDocCount', below.sumOtherDocCount).set('children', below.children);
  });
  return { children, sumOtherDocCount };
}
