// Test data for the message and workflow screens, created the way an app would: straight at the local
// stack's API with the vendor dev token the stack serves by default (local-stack.ts finds the URL).

export const DEV_TOKEN = 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=';

export interface StackApi {
  url: string;
  /** The stack's message token (it must never reach the page). */
  token: string;
  /** POST /v2/publish/<destination> (a URL or a group name); answers the parsed JSON. */
  publish(destination: string, headers?: Record<string, string>, body?: string): Promise<unknown>;
  /** Any request with the token; a body that is not a string is sent as JSON. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** A client of the message + workflow API at `url`. */
export function stackApi(url: string): StackApi {
  const request: StackApi['request'] = (method, path, body, headers = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    url,
    token: DEV_TOKEN,
    request,
    async publish(destination, headers = {}, body = '{"hello":"world"}') {
      const response = await request('POST', `/v2/publish/${destination}`, body, headers);
      if (!response.ok) throw new Error(`publish failed: ${response.status} ${await response.text()}`);
      return response.json();
    },
  };
}
