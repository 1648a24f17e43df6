import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../../common/settings';
import { sampleSettings } from '../../../testing/settings';
import {
  formFromSettings,
  modelDraftOf,
  requestFromForm,
  sectionOfError,
  validateForm,
} from './form';

const base = sampleSettings();
const settings: Settings = {
  ...base,
  apiKeys: { ...base.apiKeys, llmApiKey: { hasKey: true, masked: 'sk-••••abcd' } },
  codeGeneration: { ...base.codeGeneration, frameworks: ['pandas'] },
};

describe('settings form', () => {
  it('round-trips the server values and sends no key it was not told to', () => {
    const form = formFromSettings(settings);
    expect(validateForm(form)).toEqual({});
    const body = requestFromForm(form);
    expect(body.apiKeys).not.toHaveProperty('llmApiKey');
    expect(body.apiKeys).not.toHaveProperty('fredApiKey');
    expect(body.apiKeys?.maxConcurrentRequests).toBe(5);
    expect(body.apiKeys?.kaggleUsername).toBe('');
    expect(body.apiKeys).not.toHaveProperty('kaggleApiKey');
    expect(body.ai).toMatchObject({ temperature: 0.7, maxTokens: 2000 });
    expect(body.data).toMatchObject({ imputationStrategy: 'mean', autoCleanData: true });
    // Settings no code honours are gone from the form and the request.
    expect(body.data).not.toHaveProperty('cacheDatasets');
    expect(body.ai).not.toHaveProperty('agentAutonomy');
    expect(body.profile).not.toHaveProperty('dataAutoSave');
    expect(body.codeGeneration?.frameworks).toEqual(['pandas']);
    // Read-only profile fields are never sent.
    expect(body.profile).not.toHaveProperty('email');
    expect(body.profile).not.toHaveProperty('role');
  });

  it('replaces a key with the typed value and clears one with an empty string', () => {
    const form = formFromSettings(settings);
    form.keys.fredApiKey = { mode: 'replace', value: '  fred-123  ' };
    form.keys.llmApiKey = { mode: 'clear' };
    const body = requestFromForm(form);
    expect(body.apiKeys).toMatchObject({ fredApiKey: 'fred-123', llmApiKey: '' });
  });

  it('rounds the temperature to the 0.1 grid the server wants', () => {
    const form = formFromSettings(settings);
    form.ai.temperature = 0.30000000000000004;
    expect(requestFromForm(form).ai?.temperature).toBe(0.3);
  });

  it('finds bad input before sending and says where it is', () => {
    const form = formFromSettings(settings);
    form.profile.displayName = '  ';
    form.apiKeys.requestTimeout = '3';
    form.apiKeys.maxConcurrentRequests = 'five';
    form.apiKeys.llmBaseUrl = 'ftp://models.local';
    form.apiKeys.kaggleUsername = 'sam smith';
    form.ai.maxTokens = '99999';
    form.ai.modelVersion = 'custom';
    form.ai.customModel = '';
    form.runtime.codeExecutionTimeLimitSeconds = '1.5';
    form.keys.worldBankApiKey = { mode: 'replace', value: 'has space' };
    const errors = validateForm(form);
    expect(errors).toEqual({
      'profile.displayName': 'Display name is required',
      'apiKeys.requestTimeout': 'Request timeout must be between 5 and 600',
      'apiKeys.maxConcurrentRequests': 'Max concurrent requests must be a whole number',
      'apiKeys.llmBaseUrl': 'Must be an http(s) URL',
      'apiKeys.kaggleUsername': 'Letters, digits, dots, dashes and underscores only',
      'ai.maxTokens': 'Max tokens must be between 100 and 32000',
      'ai.customModel': 'Enter the model id to use',
      'runtime.codeExecutionTimeLimitSeconds': 'Time limit must be a whole number',
      'keys.worldBankApiKey': 'A key has no spaces',
    });
    expect(sectionOfError('keys.worldBankApiKey')).toBe('api-keys');
    expect(sectionOfError('ai.maxTokens')).toBe('ai');
    expect(sectionOfError('runtime.codeExecutionTimeLimitSeconds')).toBe('runtime');
  });

  it('asks for the new key when Replace was chosen but nothing typed', () => {
    const form = formFromSettings(settings);
    form.keys.llmApiKey = { mode: 'replace', value: '' };
    expect(validateForm(form)['keys.llmApiKey']).toBe('Enter the new key, or cancel');
  });
});

describe('model draft', () => {
  it('is empty while the model choices match the saved ones', () => {
    const form = formFromSettings(settings);
    form.profile.displayName = 'Someone else';
    expect(modelDraftOf(form, settings)).toEqual({ draft: undefined, invalid: false });
  });

  it('holds only the changed model choices and a typed key', () => {
    const form = formFromSettings(settings);
    form.apiKeys.llmProvider = 'openai-compatible';
    form.apiKeys.llmBaseUrl = ' http://llm.example.org/v1 ';
    form.ai.modelVersion = 'custom';
    form.ai.customModel = 'llama3.1';
    form.keys.llmApiKey = { mode: 'replace', value: 'sk-new-key-1234567890' };
    expect(modelDraftOf(form, settings)).toEqual({
      draft: {
        llmProvider: 'openai-compatible',
        llmBaseUrl: 'http://llm.example.org/v1',
        llmApiKey: 'sk-new-key-1234567890',
        modelVersion: 'custom',
        customModel: 'llama3.1',
      },
      invalid: false,
    });
    form.keys.llmApiKey = { mode: 'clear' };
    expect(modelDraftOf(form, settings).draft?.llmApiKey).toBe('');
  });

  it('is invalid while a changed field would be refused', () => {
    const form = formFromSettings(settings);
    form.apiKeys.llmBaseUrl = 'ftp://nope';
    expect(modelDraftOf(form, settings)).toEqual({ draft: undefined, invalid: true });
  });
});
