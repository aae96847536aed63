// The Local profile as a .env file, so one's own app (with the vendors' SDKs) talks to the local stack:
// the variable names the SDKs read by default. These are the stack's own local secrets; main writes the
// file or the clipboard, and the renderer only ever sees the masked version.
import { BridgeError } from '../../../shared/bridge/errors';
import type { LocalStackEndpoints } from './profiles-service';

const VARIABLES: [
  name: string,
  value: (local: LocalStackEndpoints) => string | undefined,
  secret: boolean,
][] = [
  ['QSTASH_URL', (local) => local.messagesUrl, false],
  ['QSTASH_TOKEN', (local) => local.secrets.messageToken, true],
  ['QSTASH_CURRENT_SIGNING_KEY', (local) => local.secrets.currentSigningKey, true],
  ['QSTASH_NEXT_SIGNING_KEY', (local) => local.secrets.nextSigningKey, true],
  ['UPSTASH_REDIS_REST_URL', (local) => local.kvUrl, false],
  ['UPSTASH_REDIS_REST_TOKEN', (local) => local.secrets.kvToken, true],
];

/** The .env text and the same with every secret masked; refuses while the stack has not given them. */
export function localEnvFile(
  local: LocalStackEndpoints | null,
  mask: (secret: string) => string,
): { text: string; masked: string } {
  const missing = local ? VARIABLES.filter(([, value]) => !value(local)).map(([name]) => name) : [];
  if (!local || missing.length > 0) {
    throw new BridgeError({
      code: 'NOT_CONFIGURED',
      message: local
        ? `The local stack did not give ${missing.join(', ')}: restart it on the Local stack page.`
        : 'The local stack is not running yet: start it on the Local stack page, then copy again.',
    });
  }
  const header = '# Switchyard local stack (this computer only): message, workflow and KV services';
  const lines = (hide: boolean) =>
    [
      header,
      ...VARIABLES.map(([name, value, secret]) => {
        const raw = value(local) as string;
        return `${name}=${secret && hide ? mask(raw) : raw}`;
      }),
    ].join('\n') + '\n';
  return { text: lines(false), masked: lines(true) };
}
