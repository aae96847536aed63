// The message form shared by the composer, each batch item and the webhook builder: destination, request,
// and every delivery option with its rule written where it is set. Controlled: the model lives in the tab.
// One component per section (./form/); this file only derives the field messages and lays them out.
import { useState } from 'react';
import type { ComposerModel } from '../../../../../shared/composer/model';
import type { Validation } from '../../../../../shared/composer/validate';
import { CallbackSection } from './form/CallbackSection';
import { DedupLabelsSection } from './form/DedupLabelsSection';
import { DeliverySection } from './form/DeliverySection';
import { DestinationSection } from './form/DestinationSection';
import { FlowControlSection } from './form/FlowControlSection';
import { RequestSection } from './form/RequestSection';
import type { SectionProps } from './form/section-props';
import './composer.css';

export interface ComposerFormProps {
  model: ComposerModel;
  onChange: (model: ComposerModel) => void;
  validation: Validation;
  /** Show "is empty" errors too (after a send attempt); other errors show as the user types. */
  showAll: boolean;
  profileId: string;
  /** The webhook builder has no body or Content-Type; a schedule's message no earliest-delivery time. */
  variant?: SectionProps['variant'];
}

export function ComposerForm({
  model,
  onChange,
  validation,
  showAll,
  profileId,
  variant = 'message',
}: ComposerFormProps) {
  const set = (patch: Partial<ComposerModel>) => onChange({ ...model, ...patch });
  const error = (field: string) => {
    const message = validation.errors[field];
    return message && (showAll || !/is empty$/.test(message)) ? message : undefined;
  };
  const shownErrors = Object.fromEntries(
    Object.keys(validation.errors).flatMap((key) => {
      const message = error(key);
      return message ? [[key, message]] : [];
    }),
  );
  // An empty body is how every new message starts, so — like an "is empty" error — its warning waits until
  // the user has been in the body or tries to send; a warning about what was typed shows at once.
  const [bodyTouched, setBodyTouched] = useState(false);
  const warning = (field: string) =>
    field === 'body' && model.body === '' && !showAll && !bodyTouched
      ? undefined
      : validation.warnings[field];
  const touch = (field: string) => {
    if (field === 'body') setBodyTouched(true);
  };
  const form = { values: model, set, error, warning };
  const section: SectionProps = {
    model,
    set,
    error,
    warning,
    touch,
    shownErrors,
    profileId,
    variant,
    form,
  };

  return (
    <div className="composer-form">
      <DestinationSection {...section} />
      <RequestSection {...section} />
      <DeliverySection {...section} />
      <CallbackSection
        title="Callback"
        hint="Called after every delivery attempt with the destination’s response (status, headers, base64 body)."
        callback={model.callback}
        field="callback"
        errors={shownErrors}
        required={model.destinationKind === 'llm'}
        onChange={(callback) => set({ callback })}
      />
      <CallbackSection
        title="Failure callback"
        hint="Called once when the message has failed for good (after the last retry), with its DLQ id."
        callback={model.failureCallback}
        field="failureCallback"
        errors={shownErrors}
        required={false}
        onChange={(failureCallback) => set({ failureCallback })}
      />
      <DedupLabelsSection {...section} />
      <FlowControlSection {...section} />
    </div>
  );
}
