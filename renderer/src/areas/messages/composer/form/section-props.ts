// What every section of the composer form gets: the model, a patch setter, and the field messages
// (errors already filtered by "show empty-field errors only after a send attempt").
import type { ComposerModel } from '../../../../../../shared/composer/model';
import type { FormBinding } from '../../../../ui/fields';

export interface SectionProps {
  model: ComposerModel;
  set: (patch: Partial<ComposerModel>) => void;
  /** The error to show for a field path (`url`, `headers.2.name`), if any. */
  error: (field: string) => string | undefined;
  warning: (field: string) => string | undefined;
  /** The user left a field: the problems it shows only once touched (an empty body's warning) show now. */
  touch: (field: string) => void;
  /** Every shown error by field path (header tables look theirs up by prefix). */
  shownErrors: Record<string, string>;
  profileId: string;
  /** The same model for fields bound to it (`<BoundTextField form={form} name="delay" … />`). */
  form: FormBinding<ComposerModel>;
  /**
   * The webhook builder has no body or Content-Type: whoever calls the URL sends those. A schedule's message
   * has no earliest-delivery time: it is due at each tick.
   */
  variant: 'message' | 'webhook' | 'schedule';
}
