// One fact of a detail panel's fact list (`<dl>`): its term and value. A fact whose value the record does
// not have is left out, so a panel lists its facts without a conditional around each pair.
import type { ReactNode } from 'react';

/**
 * The value as `value` (text, a number) or as children (markup). Nothing is shown when it is undefined,
 * null, false or '' (0 is a value and shows).
 */
export function Fact({
  label,
  mono,
  value,
  children = value,
}: {
  label: ReactNode;
  mono?: boolean;
  value?: ReactNode;
  children?: ReactNode;
}) {
  if (children === undefined || children === null || children === false || children === '') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd className={mono ? 'mono' : undefined}>{children}</dd>
    </>
  );
}
