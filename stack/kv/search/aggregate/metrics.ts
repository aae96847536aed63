// Metric aggregations: one value, or one stats object, over the documents given. Exact arithmetic over every
// value (the hosted service's percentiles and cardinality are sketches, exact on small sets).
import type { SearchDocument } from '../types';
import type { CardinalityRequest, ExtendedStatsRequest, MetricRequest, PercentilesRequest } from './request';
import { OutObject } from './reply';
import type { Out } from './reply';
import { numbersOf, valuesOf } from './values';

/** Every value of the field over the documents (an array field's each value), with `missing` for those without. */
function samples(docs: readonly SearchDocument[], path: string, missing: number | undefined): number[] {
  const all: number[] = [];
  for (const doc of docs) for (const n of numbersOf(doc, path, missing)) all.push(n);
  return all;
}

interface Stats {
  count: number;
  min: number | null;
  max: number | null;
  sum: number;
  avg: number | null;
}

function stats(values: readonly number[]): Stats {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  const count = values.length;
  return count === 0
    ? { count, min: null, max: null, sum: 0, avg: null }
    : { count, min, max, sum, avg: sum / count };
}

export function metric(request: MetricRequest, docs: readonly SearchDocument[]): OutObject {
  const path = request.field.path;
  if (request.operator === '$count') {
    // KEYWORD values count too: every value present, and one `missing` per document without any.
    let count = 0;
    for (const doc of docs) {
      const n = valuesOf(doc, path).length;
      count += n > 0 ? n : request.missing === undefined ? 0 : 1;
    }
    return new OutObject().set('value', count);
  }
  const s = stats(samples(docs, path, request.missing));
  switch (request.operator) {
    case '$avg':
      return new OutObject().set('value', s.avg);
    case '$sum':
      return new OutObject().set('value', s.sum);
    case '$min':
      return new OutObject().set('value', s.min);
    case '$max':
      return new OutObject().set('value', s.max);
    default:
      return new OutObject()
        .set('count', s.count)
        .set('min', s.min)
        .set('max', s.max)
        .set('sum', s.sum)
        .set('avg', s.avg);
  }
}

export function cardinality(request: CardinalityRequest, docs: readonly SearchDocument[]): OutObject {
  // Typed keys, so the number 1 and the string "1" stay two values.
  const distinct = new Set<string>();
  for (const doc of docs) {
    const values = valuesOf(doc, request.field.path);
    if (values.length === 0 && request.missing !== undefined)
      distinct.add(`${typeof request.missing}:${request.missing}`);
    for (const value of values) distinct.add(`${typeof value}:${value}`);
  }
  return new OutObject().set('value', distinct.size);
}

export function extendedStats(request: ExtendedStatsRequest, docs: readonly SearchDocument[]): OutObject {
  const values = samples(docs, request.field.path, request.missing);
  const s = stats(values);
  const out = new OutObject()
    .set('count', s.count)
    .set('min', s.min)
    .set('max', s.max)
    .set('avg', s.avg)
    .set('sum', s.sum);
  if (s.avg === null) {
    const bounds = new OutObject();
    for (const key of [
      'upper',
      'lower',
      'upperSampling',
      'lowerSampling',
      'upperPopulation',
      'lowerPopulation',
    ]) {
      bounds.set(key, null);
    }
    return out
      .set('sumOfSquares', null)
      .set('variance', null)
      .set('variancePopulation', null)
      .set('varianceSampling', null)
      .set('stdDeviation', null)
      .set('stdDeviationPopulation', null)
      .set('stdDeviationSampling', null)
      .set('stdDeviationBounds', bounds);
  }
  const avg = s.avg;
  let sumOfSquares = 0;
  let squaredDeviations = 0;
  for (const v of values) {
    sumOfSquares += v * v;
    squaredDeviations += (v - avg) * (v - avg);
  }
  // Deviations from the mean rather than Σx² − n·mean², which loses precision (and can go below zero).
  const variancePopulation = squaredDeviations / s.count;
  const varianceSampling = s.count > 1 ? squaredDeviations / (s.count - 1) : null;
  const stdPopulation = Math.sqrt(variancePopulation);
  const stdSampling = varianceSampling === null ? null : Math.sqrt(varianceSampling);
  const sigma = request.sigma;
  return out
    .set('sumOfSquares', sumOfSquares)
    .set('variance', variancePopulation)
    .set('variancePopulation', variancePopulation)
    .set('varianceSampling', varianceSampling)
    .set('stdDeviation', stdPopulation)
    .set('stdDeviationPopulation', stdPopulation)
    .set('stdDeviationSampling', stdSampling)
    .set(
      'stdDeviationBounds',
      new OutObject()
        .set('upper', avg + sigma * stdPopulation)
        .set('lower', avg - sigma * stdPopulation)
        .set('upperSampling', stdSampling === null ? null : avg + sigma * stdSampling)
        .set('lowerSampling', stdSampling === null ? null : avg - sigma * stdSampling)
        .set('upperPopulation', avg + sigma * stdPopulation)
        .set('lowerPopulation', avg - sigma * stdPopulation),
    );
}

/** The p-th percentile by linear interpolation between the closest ranks (the hosted docs' worked example). */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (p / 100) * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.ceil(rank);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (rank - below);
}

/** A percent as a keyed result names it: Rust's `{:?}` of an f64 ("50.0", "99.9"). */
function percentKey(p: number): string {
  return Number.isInteger(p) ? `${p}.0` : String(p);
}

export function percentiles(request: PercentilesRequest, docs: readonly SearchDocument[]): OutObject {
  const sorted = samples(docs, request.field.path, request.missing).sort((a, b) => a - b);
  if (request.keyed) {
    const values = new OutObject();
    for (const p of request.percents) values.set(percentKey(p), percentile(sorted, p));
    return new OutObject().set('values', values);
  }
  const values: Out[] = request.percents.map((p) =>
    new OutObject().set('key', p).set('value', percentile(sorted, p)),
  );
  return new OutObject().set('values', values);
}
