import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { SETTINGS_SAVED_MESSAGE, type Settings } from '../../../common/settings';
import { renderWithApp } from '../../testing/renderApp';
import { sampleSettings } from '../../testing/settings';
import { setAuth, setUser } from '../../api/session';
import SettingsPage from './SettingsPage';

const settings: Settings = sampleSettings();

/** GET answers at once; PUT waits until the test resolves it. */
function stubSettings() {
  let release: (r: { status: number; json: unknown }) => void = () => undefined;
  const puts: unknown[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const respond = (r: { status: number; json: unknown }) =>
      new Response(JSON.stringify(r.json), {
        status: r.status,
        headers: { 'content-type': 'application/json' },
      });
    if (url.pathname === '/api/settings' && method === 'PUT') {
      puts.push(JSON.parse(String(init?.body)));
      return new Promise<Response>((resolve) => {
        release = (r) => resolve(respond(r));
      });
    }
    if (url.pathname === '/api/settings')
      return respond({ status: 200, json: { success: true, data: { settings } } });
    return respond({ status: 404, json: {} });
  }) as typeof fetch;
  return { puts, answer: (r: { status: number; json: unknown }) => release(r) };
}

beforeEach(() => {
  localStorage.clear();
  setAuth({ accessToken: 'acc', refreshToken: 'ref' });
  setUser({ id: 'u1', role: 'researcher', displayName: 'Ada', email: 'ada@example.org' });
});
afterEach(cleanup);

describe('SettingsPage', () => {
  it('confirms only after the server saved, then hides the notice after 3 s', async () => {
    const server = stubSettings();
    renderWithApp(<SettingsPage />, { path: '/app/settings' });
    const name = (await screen.findByLabelText(/Display name/)) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'Ada Lovelace' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(server.puts).toHaveLength(1);
    expect(server.puts[0]).toMatchObject({ profile: { displayName: 'Ada Lovelace' } });
    // The PUT is still open: no confirmation yet.
    expect(screen.queryByText(SETTINGS_SAVED_MESSAGE)).toBeNull();

    const saved = { ...settings, profile: { ...settings.profile, displayName: 'Ada Lovelace' } };
    await act(async () => {
      server.answer({
        status: 200,
        json: { success: true, message: 'ok', data: { settings: saved } },
      });
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(screen.getByText(SETTINGS_SAVED_MESSAGE)).toBeTruthy();
    // The stored user follows the new name (the shell shows it).
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({
      displayName: 'Ada Lovelace',
    });
    await act(async () => new Promise((r) => setTimeout(r, 3300)));
    expect(screen.queryByText(SETTINGS_SAVED_MESSAGE)).toBeNull();
  });

  it('shows the failure instead of the confirmation when the server refuses', async () => {
    const server = stubSettings();
    renderWithApp(<SettingsPage />, { path: '/app/settings' });
    await screen.findByLabelText(/Display name/);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
      server.answer({
        status: 400,
        json: { success: false, error: 'Bad', message: 'maxTokens must be between 100 and 32000' },
      });
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(
      screen.getByText('Your settings were not saved: maxTokens must be between 100 and 32000'),
    ).toBeTruthy();
    expect(screen.queryByText(SETTINGS_SAVED_MESSAGE)).toBeNull();
  });

  it.each([
    ['interface', 'Theme', [/Save data automatically/]],
    ['ai', 'Temperature', [/Agent autonomy/, /Save agent history/, /Continuous learning/]],
    ['data', 'Missing-value imputation', [/Cache datasets/, /Max cache size/]],
  ])(
    'the %s section offers no switch for an effect the server does not have',
    async (section, present, gone) => {
      stubSettings();
      renderWithApp(<SettingsPage />, { path: `/app/settings?section=${section}` });
      expect((await screen.findAllByText(new RegExp(present))).length).toBeGreaterThan(0);
      for (const label of gone) expect(screen.queryByText(label)).toBeNull();
    },
  );
});
