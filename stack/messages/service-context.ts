// What the route handlers of the message service share.
import type { Logger } from 'pino';
import type { SigningKeys } from '../../shared/messages/types';
import type { Clock } from '../clock';
import type { StackStore } from '../store/stack-store';
import type { Engine } from './engine';
import type { MessageWriter } from './write-ops';

export interface SigningKeyStore {
  keys(): SigningKeys;
  /** next → current, a fresh next; persisted. */
  rotate(): SigningKeys;
}

export interface ServiceContext {
  store: StackStore;
  writer: MessageWriter;
  engine: Engine;
  clock: Clock;
  logger: Logger;
  signingKeys: SigningKeyStore;
  llm?: { url: string; key?: string };
}
