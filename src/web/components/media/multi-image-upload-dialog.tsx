import { useState, type Dispatch } from 'react';
import { Modal, Stepper, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useBulkUpload } from './use-bulk-upload';
import { datesOutOfOrder, type RowsAction, type UploadDates } from './upload-rows';
import { UploadDetailsStep } from './upload-details-step';
import { UploadSelectStep } from './upload-select-step';
import { uploadTotals } from './upload-totals';
import { showToast } from '@web/lib/toast';

export interface MultiImageUploadDialogProps {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  /** After Save Images saved every row: the new image sets' ids. */
  onSaved?: (itemIds: string[]) => void;
}

const NO_DATES: UploadDates = { startTime: null, endTime: null };

/** Asks before closing the dialog throws away images not yet saved as image sets. */
function confirmDiscard(unsaved: number, onConfirm: () => void) {
  modals.openConfirmModal({
    title: 'Discard these images?',
    children: (
      <Text size="sm">
        {unsaved} image{unsaved === 1 ? ' is' : 's are'} not saved as image sets yet. Closing stops the
        uploads and discards them.
      </Text>
    ),
    labels: { confirm: 'Discard', cancel: 'Keep editing' },
    confirmProps: { color: 'red' },
    centered: true,
    zIndex: 400,
    onConfirm,
  });
}

/** The optional dates of step 1, which apply to every row not yet saved. */
function useUploadDates(dispatch: Dispatch<RowsAction>) {
  const [dates, setDates] = useState<UploadDates>(NO_DATES);
  const changeDates = (next: UploadDates) => {
    setDates(next);
    dispatch({ type: 'dates', ...next });
  };
  const resetDates = () => setDates(NO_DATES);
  return { dates, datesInvalid: datesOutOfOrder(dates), changeDates, resetDates };
}

/**
 * Spec §2 Multi-image upload dialog, §4 Image upload wizard: step 1 picks images (drag and drop or
 * click) with optional start and end dates, and uploads them; step 2 edits each image's name, alt text,
 * issues, dates and tags in a table; Save Images creates one image set per image, then the dialog closes.
 */
export function MultiImageUploadDialog({
  opened,
  onClose,
  workspaceId,
  onSaved,
}: MultiImageUploadDialogProps) {
  const { rows, dispatch, addFiles, saveAll, reset } = useBulkUpload(workspaceId);
  const [step, setStep] = useState(0);
  const { dates, datesInvalid, changeDates, resetDates } = useUploadDates(dispatch);
  const [rejected, setRejected] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [saveSummary, setSaveSummary] = useState<string | null>(null);

  const totals = uploadTotals(rows);

  const finish = () => {
    reset();
    setStep(0);
    resetDates();
    setRejected([]);
    setSaveSummary(null);
    onClose();
  };

  const handleClose = () => {
    if (saving) return;
    const unsaved = rows.filter((row) => row.status !== 'saved' && row.status !== 'failed').length;
    if (unsaved === 0) return finish();
    confirmDiscard(unsaved, finish);
  };

  const handleSave = async () => {
    setSaving(true);
    setSaveSummary(null);
    const { saved, failed: notSaved } = await saveAll();
    setSaving(false);
    if (notSaved === 0 && rows.every((row) => row.status === 'failed' || row.record)) {
      const all = saved.length;
      showToast({ color: 'teal', message: `${all} image set${all === 1 ? '' : 's'} saved` });
      onSaved?.(saved);
      finish();
      return;
    }
    setSaveSummary(
      `${saved.length} saved, ${notSaved} not saved. The rows say why; fix them and choose Save Images again.`,
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={<Text fw={650}>Upload images</Text>}
      size={step === 0 ? 'xl' : 'min(1400px, 96vw)'}
      centered
      closeOnClickOutside={false}
      transitionProps={{ duration: 120 }}
    >
      <Stepper
        active={step}
        size="sm"
        mb="lg"
        allowNextStepsSelect={false}
        onStepClick={(next) => !saving && setStep(next)}
      >
        <Stepper.Step label="Select images" description="Upload, with optional dates" />
        <Stepper.Step label="Edit details" description="Name, alt text, issues, dates, tags" />
      </Stepper>

      {step === 0 && (
        <UploadSelectStep
          rows={rows}
          totals={totals}
          dates={dates}
          datesInvalid={datesInvalid}
          rejected={rejected}
          onDrop={(files) => {
            setRejected([]);
            addFiles(files, dates);
          }}
          onRejectedChange={setRejected}
          onDatesChange={changeDates}
          onRemove={(key) => dispatch({ type: 'remove', key })}
          onCancel={handleClose}
          onNext={() => setStep(1)}
        />
      )}

      {step === 1 && (
        <UploadDetailsStep
          rows={rows}
          totals={totals}
          workspaceId={workspaceId}
          dispatch={dispatch}
          saving={saving}
          saveSummary={saveSummary}
          onBack={() => setStep(0)}
          onSave={() => void handleSave()}
        />
      )}
    </Modal>
  );
}
