/** A 1–5 rating as stars, with the words for screen readers (the stars alone are decoration). */
export function Stars({ rating, className }: { rating: number; className?: string }) {
  return (
    <span className={className}>
      <span aria-hidden="true" className="text-amber-500">
        {"★".repeat(rating)}
        <span className="text-slate-300">{"☆".repeat(5 - rating)}</span>
      </span>
      <span className="sr-only">{rating} out of 5</span>
    </span>
  );
}
