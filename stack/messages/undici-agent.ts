// undici's Agent, taken from its own module rather than the package's index. The stack needs only the Agent
// (deliveries use its low-level dispatch). The index also loads fetch, WebSocket, cookies, the mock agents
// and the cache stores, and through them Node's own built-in copy of undici: about a third of the CPU the
// stack spent loading its code before the ready line (issue 18 item 3: a restart must be ready within 1 s).
// The class and its type are the package's own.
import Agent from 'undici/lib/dispatcher/agent';

export { Agent };
