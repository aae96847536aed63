export async function run(_args: string[]): Promise<void> {
  throw new Error('the messages benchmark is not written yet');
}
