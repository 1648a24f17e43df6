/** Placeholder: this screen is being built (see its issue). */
export default function DocumentationPage() {
  return <div>DocumentationPage</div>;
}
