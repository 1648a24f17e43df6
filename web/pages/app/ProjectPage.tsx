/** Placeholder: this screen is being built (see its issue). */
export default function ProjectPage() {
  return <div>ProjectPage</div>;
}
