// How the SEARCH.* emulation reads text: a TEXT field's value becomes terms (words lower-cased and stemmed in
// the index's language), as the hosted service's Tantivy analyzer does, so a query for "running" and one for
// "run" find the same documents. Filters compare their words with a document's terms after the same analysis.
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';

type Stemmer = (word: string) => string;

const noStemming: Stemmer = (word) => word;

/**
 * The languages `SEARCH.CREATE … LANGUAGE` accepts (the hosted service's list). Chinese and Japanese have no
 * stemmer: their words are kept as they are.
 */
const STEMMERS = new Map<string, Stemmer>([
  ['english', english],
  ['french', french],
  ['spanish', spanish],
  ['portuguese', portuguese],
  ['italian', italian],
  ['german', german],
  ['dutch', dutch],
  ['swedish', swedish],
  ['norwegian', norwegian],
  ['danish', danish],
  ['finnish', finnish],
  ['hungarian', hungarian],
  ['russian', russian],
  ['romanian', romanian],
  ['turkish', turkish],
  ['arabic', arabic],
  ['chinese', noStemming],
  ['japanese', noStemming],
]);

export const LANGUAGES: readonly string[] = [...STEMMERS.keys()];

export function isLanguage(name: string): boolean {
  return STEMMERS.has(name);
}

/** How one TEXT field turns values into terms. */
export interface TextAnalysis {
  /** NOTOKENIZE: the whole value is one term. */
  noTokenize: boolean;
  /** NOSTEM: words are kept as written (lower-cased). */
  noStem: boolean;
  language: string;
}

/** One word of a value: where it is in the text (for highlighting), its position (phrases) and its term. */
export interface Token {
  term: string;
  /** The word as lower-cased, before stemming (fuzzy and prefix matching compare with both). */
  word: string;
  position: number;
  start: number;
  end: number;
}

/** Tantivy drops words longer than this (RemoveLongFilter); so does the emulation. */
const MAX_WORD_LENGTH = 40;

/**
 * A word is a run of letters and digits; a character of a CJK script is a word by itself (the hosted service
 * has its own tokenizers for Chinese and Japanese; single characters are the nearest simple rule).
 */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}]+/gu;

/**
 * Stems already computed, per language. Why: every query analyses every document again (there is no stored
 * index), and a corpus repeats few distinct words, so stemming each word once is most of the analysis saved.
 * Bounded: emptied when it grows past MAX_REMEMBERED_STEMS words.
 */
const rememberedStems = new Map<string, Map<string, string>>();
const MAX_REMEMBERED_STEMS = 200_000;

function stemmerOf(language: string): Stemmer {
  const stem = STEMMERS.get(language) ?? noStemming;
  if (stem === noStemming) return noStemming;
  let memo = rememberedStems.get(language);
  if (!memo) rememberedStems.set(language, (memo = new Map()));
  const known = memo;
  return (word) => {
    let stemmed = known.get(word);
    if (stemmed === undefined) {
      if (known.size >= MAX_REMEMBERED_STEMS) known.clear();
      stemmed = stem(word);
      known.set(word, stemmed);
    }
    return stemmed;
  };
}

/** The terms of a value, in order. */
export function analyze(text: string, analysis: TextAnalysis): Token[] {
  if (analysis.noTokenize) {
    const word = text.toLowerCase();
    return [{ term: word, word, position: 0, start: 0, end: text.length }];
  }
  const stem = analysis.noStem ? noStemming : stemmerOf(analysis.language);
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (word.length > MAX_WORD_LENGTH) continue;
    tokens.push({
      term: stem(word),
      word,
      position: tokens.length,
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  return tokens;
}

/**
 * The edit distance between two words (insertions, deletions, substitutions; a swap of two neighbours counts
 * one when `transpositionCostOne`, as Tantivy's default), or more than `max` once it is known to exceed it.
 */
export function editDistance(a: string, b: string, max: number, transpositionCostOne = true): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const x = [...a];
  const y = [...b];
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (
        transpositionCostOne &&
        i > 1 &&
        j > 1 &&
        x[i - 1] === y[j - 2] &&
        x[i - 2] === y[j - 1] &&
        beforePrevious.length > 0
      ) {
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      }
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * Whether some prefix of `word` is within `max` edits of `prefix` (a fuzzy prefix query: "lep" finds
 * "laptop" by its prefix "lap").
 */
export function fuzzyPrefixMatches(
  word: string,
  prefix: string,
  max: number,
  transpositions: boolean,
): boolean {
  const length = [...prefix].length;
  const chars = [...word];
  for (let take = Math.max(0, length - max); take <= Math.min(chars.length, length + max); take++) {
    if (editDistance(chars.slice(0, take).join(''), prefix, max, transpositions) <= max) return true;
  }
  return false;
}
