// The write operations of flow control (stack/writes.ts lists them with every other service's): a key's
// row as the gate (flow-gate.ts) holds it, and the removal of keys nobody uses any more.
import { FlowKeyTable, type FlowKeyRecord } from '../store/flow-keys';
import type { StackStore } from '../store/stack-store';
import type { Writer, WriteCall } from '../store/writer';

export const FLOW_CONTROL_WRITES = {
  saveFlowKeys: (store: StackStore, records: FlowKeyRecord[]) => {
    const table = store.group(FlowKeyTable);
    for (const record of records) table.save(record);
  },
  deleteFlowKeys: (store: StackStore, keys: string[]) => store.group(FlowKeyTable).delete(keys),
};

export type FlowControlWrites = typeof FLOW_CONTROL_WRITES;
export type FlowControlWriter = Writer<FlowControlWrites>;
export type FlowControlWrite = WriteCall<FlowControlWrites>;
