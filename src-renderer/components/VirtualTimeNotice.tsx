// Said wherever times are read (the inspector): the service's clock is not the wall
// clock, so the times shown are virtual (a test clock moved them).
import { useQuery } from '@tanstack/react-query';
import { clockQuery } from '../api/clock.js';
import { offsetText } from './ClockControl.js';

export function VirtualTimeNotice() {
  const clock = useQuery(clockQuery());
  const view = clock.data;
  if (!view || (Math.abs(view.offset_seconds) < 1 && !view.frozen)) return null;
  return (
    <div className="notice notice-info" role="status" data-testid="virtual-time">
      <span>
        <strong>Virtual time.</strong> The service's clock is {view.frozen ? 'frozen' : 'running'} at{' '}
        <time dateTime={view.now}>{new Date(view.now).toLocaleString()}</time>, {offsetText(view.offset_seconds)} of the wall clock. Times
        here (sent, received, retries) are the service's.
      </span>
    </div>
  );
}
