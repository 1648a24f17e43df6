/** Placeholder: this screen is being built (see its issue). */
export default function OverviewPage() {
  return <div>OverviewPage</div>;
}
