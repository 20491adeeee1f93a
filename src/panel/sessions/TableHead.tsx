import { useLens } from '../app/lens-context';

/** The event table's column headers; "time" sorts the rows oldest or newest first. */
export function TableHead() {
  const lens = useLens();
  const order = lens.tableOrder.value;
  return (
    <div class="table-head">
      <span class="col-id">id</span>
      <span class="col-event">event</span>
      <span class="col-what">method / role</span>
      <span class="col-seq">app_seq</span>
      <span class="col-time">
        <button
          type="button"
          class="table-sort"
          data-testid="table-sort"
          data-order={order}
          aria-label={`time, ${order === 'asc' ? 'oldest' : 'newest'} first: sort the other way`}
          onClick={() => (lens.tableOrder.value = order === 'asc' ? 'desc' : 'asc')}
        >
          time {order === 'asc' ? '↑' : '↓'}
        </button>
      </span>
      <span class="col-delta">Δ</span>
      <span class="col-data">data</span>
    </div>
  );
}
