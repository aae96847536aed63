// Public face of the KV REST service (issue 4). The stack process (stack/stack.ts) calls startKvService and
// reports either its URLs and tokens or, when Redis cannot be had, `kv: {error}` in its ready line.
import { KvUnavailableError } from './errors';
import { createKvService, type KvService, type KvServiceOptions } from './service';

export { KvUnavailableError, type KvService, type KvServiceOptions };

export async function startKvService(options: KvServiceOptions): Promise<KvService> {
  const { url, token, readOnlyToken, close } = await createKvService(options);
  return { url, token, readOnlyToken, close };
}
