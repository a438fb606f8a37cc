import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Box, Group, Stack, Text } from '@mantine/core';
import { focusFromClick, nudgeFocus, objectPosition, type FocalPoint } from './focal-point';
import classes from './media.module.css';

export interface FocalPointImageProps {
  src: string;
  alt: string;
  focus: FocalPoint;
  /** Without it the image only shows the focal point. */
  onFocusChange?: (focus: FocalPoint) => void;
  maxWidth?: number;
  maxHeight?: number;
}

/**
 * An image with its focal point marked; clicking it (or the arrow keys when it has focus) moves the
 * point. Beside it, how the image crops to a square and to a wide banner with that point kept in view.
 */
export function FocalPointImage({
  src,
  alt,
  focus,
  onFocusChange,
  maxWidth = 600,
  maxHeight = 420,
}: FocalPointImageProps) {
  const [loaded, setLoaded] = useState(false);
  const editable = !!onFocusChange;

  const handleClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!onFocusChange) return;
    const image = event.currentTarget.querySelector('img');
    if (!image) return;
    onFocusChange(focusFromClick(event.clientX, event.clientY, image.getBoundingClientRect()));
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!onFocusChange) return;
    const next = nudgeFocus(focus, event.key);
    if (!next) return;
    event.preventDefault();
    onFocusChange(next);
  };

  const percent = (n: number) => `${Math.round(n * 100)}%`;

  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <Stack gap={4} style={{ maxWidth }}>
        <div
          className={classes.focusFrame}
          data-editable={editable || undefined}
          role={editable ? 'button' : undefined}
          tabIndex={editable ? 0 : undefined}
          aria-label={
            editable
              ? `Focal point at ${percent(focus.focusX)} across, ${percent(focus.focusY)} down. Click the image or use the arrow keys to move it.`
              : undefined
          }
          data-testid="focal-point-image"
          onClick={handleClick}
          onKeyDown={handleKeyDown}
        >
          <img
            src={src}
            alt={alt}
            className={classes.focusImage}
            style={{ maxHeight }}
            onLoad={() => setLoaded(true)}
            draggable={false}
          />
          {loaded && (
            <span
              className={classes.focusMarker}
              style={{ left: percent(focus.focusX), top: percent(focus.focusY) }}
              aria-hidden
              data-testid="focal-point-marker"
            />
          )}
        </div>
        {editable && (
          <Text size="xs" c="dimmed">
            Click the image to set its focal point: crops keep it in view.
          </Text>
        )}
      </Stack>
      {loaded && (
        <Stack gap={6} aria-hidden>
          <Text size="xs" c="dimmed" fw={500}>
            Crops
          </Text>
          <Group gap={8} align="flex-start" wrap="nowrap">
            <Box className={classes.cropPreview} w={64} h={64}>
              <img src={src} alt="" style={{ objectPosition: objectPosition(focus) }} />
            </Box>
            <Box className={classes.cropPreview} w={128} h={54}>
              <img src={src} alt="" style={{ objectPosition: objectPosition(focus) }} />
            </Box>
          </Group>
        </Stack>
      )}
    </Group>
  );
}
