/** Placeholder: this screen is being built (see its issue). */
export default function ProjectManagerPage() {
  return <div>ProjectManagerPage</div>;
}
