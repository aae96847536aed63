import { useState } from 'react';
import type { ConnectionTestResult } from '../../../../shared/bridge/procedures/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridge } from '../../bridge/react';
import { Button } from '../../ui/Button';
import { PlugIcon } from '../../ui/icons';
import { Callout } from '../../ui/misc';

const SERVICES = [
  { id: 'messages', label: 'Test message API' },
  { id: 'kv', label: 'Test KV REST' },
] as const;

/** "Test connection" per service, with the result spelled out (the server's own text on failure). */
export function ConnectionTests({ profileId, disabled }: { profileId: string; disabled?: string }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState<string | null>(null);
  const [results, setResults] = useState<Partial<Record<'messages' | 'kv', ConnectionTestResult | string>>>(
    {},
  );

  const run = async (service: 'messages' | 'kv') => {
    setBusy(service);
    try {
      const result = await bridge.call('profiles.testConnection', { id: profileId, service });
      setResults((current) => ({ ...current, [service]: result }));
    } catch (error) {
      setResults((current) => ({ ...current, [service]: errorMessage(error) }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack" style={{ gap: 8 }}>
      <div className="row">
        {SERVICES.map((service) => (
          <Button
            key={service.id}
            icon={<PlugIcon />}
            busy={busy === service.id}
            disabled={Boolean(disabled)}
            title={disabled}
            onClick={() => void run(service.id)}
          >
            {service.label}
          </Button>
        ))}
      </div>
      {SERVICES.map(({ id }) => {
        const result = results[id];
        if (result === undefined) return null;
        const name = id === 'messages' ? 'Message API' : 'KV REST';
        if (typeof result === 'string') {
          return (
            <Callout key={id} tone="danger" title={`${name}:`}>
              {result}
            </Callout>
          );
        }
        const tone = result.auth === 'ok' ? 'success' : result.reachable ? 'warning' : 'danger';
        return (
          <div key={id} data-testid={`test-result-${id}`}>
            <Callout tone={tone} title={`${name}:`}>
              {result.message}
            </Callout>
          </div>
        );
      })}
    </div>
  );
}
