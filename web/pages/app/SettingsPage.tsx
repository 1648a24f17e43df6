/** Placeholder: this screen is being built (see its issue). */
export default function SettingsPage() {
  return <div>SettingsPage</div>;
}
