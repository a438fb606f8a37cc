import type { CanvasStep } from '../definition';

/** What each kind's property form receives: the step, and where to send it changed. */
export interface StepFormProps {
  step: CanvasStep;
  onChange: (step: CanvasStep) => void;
  readOnly: boolean;
  workspaceId: string;
}
