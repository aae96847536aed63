export async function run(_args: string[]): Promise<void> {
  throw new Error('the ui benchmark is not written yet');
}
