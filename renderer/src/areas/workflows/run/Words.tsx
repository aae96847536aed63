// A sentence of the workflow screens ("why not done", history entries) with its `quoted` parts (event ids,
// step names, errors) set as code.
export function Words({ text }: { text: string }) {
  const parts = text.split('`');
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className="wf-word">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** The sentence as plain text (for titles and tooltips). */
export const plainWords = (text: string) => text.replaceAll('`', '');
