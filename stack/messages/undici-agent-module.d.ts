// The type of undici's own Agent module, which stack/messages/undici-agent.ts imports directly.
declare module 'undici/lib/dispatcher/agent' {
  import { Agent } from 'undici';
  export default Agent;
}
