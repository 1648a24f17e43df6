/** Placeholder: this screen is being built (see its issue). */
export default function DataExplorerPage() {
  return <div>DataExplorerPage</div>;
}
