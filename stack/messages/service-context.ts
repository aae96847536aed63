// What the route handlers of the message service share.
import type { Logger } from 'pino';
import type { SigningKeys } from '../../shared/messages/types';
import type { Clock } from '../clock';
import type { StackStore } from '../store/stack-store';
import type { Engine } from './engine';
import type { StackWriter } from '../writes';

export interface SigningKeyStore {
  keys(): SigningKeys;
  /** next → current, a fresh next; persisted. */
  rotate(): SigningKeys;
}

export interface ServiceContext {
  store: StackStore;
  /** The stack's one writer: it commits every service's write operations (stack/writes.ts). */
  writer: StackWriter;
  engine: Engine;
  clock: Clock;
  logger: Logger;
  signingKeys: SigningKeyStore;
  llm?: { url: string; key?: string };
}
