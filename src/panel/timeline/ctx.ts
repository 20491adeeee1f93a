/**
 * The part of CanvasRenderingContext2D the timeline uses. A real canvas context satisfies it; the
 * benchmark and tests can pass a stand-in.
 */
export type Ctx = Pick<
  CanvasRenderingContext2D,
  | 'fillStyle' | 'strokeStyle' | 'lineWidth' | 'font' | 'textBaseline' | 'textAlign' | 'globalAlpha'
  | 'fillRect' | 'clearRect' | 'beginPath' | 'closePath' | 'moveTo' | 'lineTo' | 'stroke' | 'fill' | 'rect' | 'fillText'
  | 'setLineDash' | 'save' | 'restore' | 'measureText' | 'translate' | 'clip'
>;
