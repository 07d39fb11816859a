import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { ApiError, type Pagination } from "./api";

/** The API's error body, as the API worded it. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof ApiError ? error : undefined;
  return (
    <div className="error" role="alert">
      <strong>{e ? e.body.error : "Something went wrong"}</strong>
      {e?.body.details ? <span>: {e.body.details}</span> : null}
      {!e && error instanceof Error ? <span>: {error.message}</span> : null}
      {e && e.status > 0 ? <span className="muted"> (HTTP {e.status})</span> : null}
    </div>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The page's heading, focused when the page opens (screen readers announce the new page). */
export function PageTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** A link inside the console: client-side navigation, still a real link (new tab, keyboard). */
export function Link({ to, navigate, children, className }: { to: string; navigate: (to: string) => void; children: ReactNode; className?: string }) {
  return (
    <a
      href={`/console${to}`}
      className={className}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

/**
 * A form's submission: `submit(work)` marks it busy, clears the last error,
 * runs the work, keeps what it threw as `error`, and is not busy after.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = (work: () => Promise<void>, onError?: () => void) => async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      onError?.();
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}

/** Previous / next through a list's pages, with where the list stands; nothing when it fits on one page. */
export function Pager({ pagination, onPage, label }: { pagination: Pagination | undefined; onPage: (page: number) => void; label: string }) {
  if (!pagination || pagination.totalPages <= 1) return null;
  const { currentPage: page, totalPages, totalItems } = pagination;
  return (
    <nav className="row pager" aria-label={label}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {page} of {totalPages} ({totalItems} in all)
      </span>
      <button type="button" className="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

/** What just happened, said politely to screen readers; nothing when there is nothing to say. */
export function Notice({ children }: { children: ReactNode }) {
  if (children === undefined || children === null || children === false || children === "") return null;
  return (
    <p role="status" className="ok">
      {children}
    </p>
  );
}

/**
 * A destructive action behind a confirmation: a button (`label`), then the question with the confirming button
 * (`confirmLabel`) and Cancel, in a group named `groupLabel`. A failure of `onConfirm` is shown under it.
 */
export function ConfirmAction({
  label,
  labelAria,
  question,
  confirmLabel,
  groupLabel,
  onConfirm,
  quiet,
}: {
  label: string;
  /** The opening button's accessible name, when the label alone is ambiguous (in a table). */
  labelAria?: string;
  question: ReactNode;
  confirmLabel: string;
  groupLabel: string;
  onConfirm: () => Promise<void>;
  /** The opening button as a secondary one (in a table row). */
  quiet?: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>();
  const confirm = async () => {
    setError(undefined);
    try {
      await onConfirm();
      setConfirming(false);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      {confirming ? (
        <div className="row confirm" role="group" aria-label={groupLabel}>
          <span>{question}</span>
          <button type="button" className="danger" onClick={() => void confirm()}>
            {confirmLabel}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className={quiet ? "secondary" : "danger"} onClick={() => setConfirming(true)} aria-label={labelAria}>
          {label}
        </button>
      )}
      <ErrorMessage error={error} />
    </>
  );
}

/** Calls `load` every `everyMs` while `active` (a document being processed, a sync running). */
export function usePolling(active: boolean, load: () => unknown, everyMs: number): void {
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => void load(), everyMs);
    return () => clearInterval(t);
  }, [active, load, everyMs]);
}

/** A table's header row: the named columns, then an unnamed actions column (named for screen readers). */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
