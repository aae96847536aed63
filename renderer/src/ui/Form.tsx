// A form the app handles itself: Enter in a box or the submit button calls onSubmit, and the browser never
// navigates (every form in the app wants this; none posts anywhere).
import type { FormHTMLAttributes } from 'react';

type FormProps = Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & { onSubmit: () => void };

export function Form({ onSubmit, ...rest }: FormProps) {
  return (
    <form
      {...rest}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    />
  );
}
