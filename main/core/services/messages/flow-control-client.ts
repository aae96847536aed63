// The flow-control part of the message service's API: every `/v2/flowControl…` path, query and wire parse,
// and the local stack's `/local/flowControl/…` extras, over the message client's transport (client.ts).
import { BridgeError } from '../../../../shared/bridge/errors';
import type { FlowControlOverview } from '../../../../shared/bridge/procedures/messages/flow-control';
import type {
  FlowControlHistory,
  FlowControlMessageHold,
  FlowControlInfo,
  FlowControlPin,
  FlowControlUnpin,
  GlobalParallelismInfo,
} from '../../../../shared/messages/flow-control';
import { serviceErrorText } from '../../http/service-http';
import type { ServiceApi } from '../../http/service-api';

const enc = encodeURIComponent;
const keyPath = (key: string, suffix = '') => `/v2/flowControl/${enc(key)}${suffix}`;
const localKeyPath = (key: string, suffix: string) => `/local/flowControl/${enc(key)}${suffix}`;

type WireInfo = Partial<FlowControlInfo> & { waitlistSize?: number };

/**
 * One shape for the UI. The real service leaves out zero and false fields, and its documented list item
 * spells the waitlist `waitlistSize`; `complete` says whether the record carried the key's limits at all.
 */
export function normalizeFlowControlInfo(wire: WireInfo): { info: FlowControlInfo; complete: boolean } {
  return {
    info: {
      flowControlKey: wire.flowControlKey ?? '',
      waitListSize: wire.waitListSize ?? wire.waitlistSize ?? 0,
      parallelismMax: wire.parallelismMax ?? 0,
      parallelismCount: wire.parallelismCount ?? 0,
      rateMax: wire.rateMax ?? 0,
      rateCount: wire.rateCount ?? 0,
      ratePeriod: wire.ratePeriod ?? 0,
      ratePeriodStart: wire.ratePeriodStart ?? 0,
      isPaused: wire.isPaused ?? false,
      isPinnedParallelism: wire.isPinnedParallelism ?? false,
      isPinnedRate: wire.isPinnedRate ?? false,
    },
    complete: 'parallelismMax' in wire || 'rateMax' in wire || 'ratePeriod' in wire,
  };
}

export class FlowControlClient {
  constructor(private readonly api: ServiceApi) {}

  /** Every key (the docs' `GET /v2/flowControl`, optionally narrowed by `search`) and the global numbers. */
  async overview(search?: string): Promise<FlowControlOverview> {
    const [list, global] = await Promise.all([this.list(search), this.global()]);
    return { keys: list.keys, global, detailed: list.detailed };
  }

  /** Every key (narrowed by `search`), by key; `detailed` as in the overview. */
  async list(search?: string, signal?: AbortSignal): Promise<{ keys: FlowControlInfo[]; detailed: boolean }> {
    const { body } = await this.api.json<WireInfo[] | { flowControls?: WireInfo[] } | null>({
      path: '/v2/flowControl',
      query: { search: search || undefined },
      signal,
    });
    // The current docs answer an array; an older page wraps it as `{"flowControls": […]}`.
    const items = Array.isArray(body) ? body : (body?.flowControls ?? []);
    const normalized = items.map(normalizeFlowControlInfo);
    return {
      keys: normalized
        .map(({ info }) => info)
        .sort((a, b) =>
          a.flowControlKey < b.flowControlKey ? -1 : a.flowControlKey > b.flowControlKey ? 1 : 0,
        ),
      detailed: normalized.every(({ complete }) => complete),
    };
  }

  async get(key: string): Promise<FlowControlInfo> {
    const { body } = await this.api.json<WireInfo>({ path: keyPath(key) });
    return normalizeFlowControlInfo({ flowControlKey: key, ...body }).info;
  }

  /** The service leaves out a zero count (as the SDK notes). */
  async global(): Promise<GlobalParallelismInfo> {
    const { body } = await this.api.json<Partial<GlobalParallelismInfo> | null>({
      path: '/v2/globalParallelism',
    });
    return { parallelismMax: body?.parallelismMax ?? 0, parallelismCount: body?.parallelismCount ?? 0 };
  }

  async setPaused(key: string, paused: boolean): Promise<void> {
    await this.api.request({ method: 'POST', path: keyPath(key, paused ? '/pause' : '/resume') });
  }

  async pin(key: string, pin: FlowControlPin): Promise<void> {
    await this.api.request({ method: 'POST', path: keyPath(key, '/pin'), query: { ...pin } });
  }

  /** Only the settings to unpin are sent (`parallelism=true`, `rate=true`). */
  async unpin(key: string, unpin: FlowControlUnpin): Promise<void> {
    await this.api.request({
      method: 'POST',
      path: keyPath(key, '/unpin'),
      query: { parallelism: unpin.parallelism || undefined, rate: unpin.rate || undefined },
    });
  }

  async resetRate(key: string): Promise<void> {
    await this.api.request({ method: 'POST', path: keyPath(key, '/resetRate') });
  }

  /** The local stack's history of the key; null from a service without it (the cloud). */
  history(key: string): Promise<FlowControlHistory | null> {
    return this.local<FlowControlHistory>(key, '/history');
  }

  /** Whether the key holds the message now (local stack only; null elsewhere). */
  hold(key: string, messageId: string): Promise<FlowControlMessageHold | null> {
    return this.local<FlowControlMessageHold>(key, `/messages/${enc(messageId)}`);
  }

  /**
   * A local-only extension: the local stack answers it, or 404 "flow-control key '…' not found" for an
   * unknown key (a real error); any other answer means the service has no such extension.
   */
  private async local<T>(key: string, suffix: string): Promise<T | null> {
    const response = await this.api.send({ path: localKeyPath(key, suffix) }, true);
    const text = response.body.toString('utf8');
    if (response.status === 200) {
      try {
        return JSON.parse(text) as T;
      } catch {
        return null;
      }
    }
    if (response.status === 404 && text.includes('flow-control key')) {
      throw new BridgeError({ code: 'SERVICE_ERROR', status: 404, message: serviceErrorText(response) });
    }
    return null;
  }
}
