import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageReplySchema } from '../../../common/api';
import {
  documentListReplySchema,
  documentReplySchema,
  type DocumentCategory,
} from '../../../common/documents';
import { provenanceReplySchema } from '../../../common/provenance';
import { checkedApi, refreshTokens, unwrap } from '../client';
import { getAuth } from '../session';
import { projectKeys } from './projects';
import { queryString } from './query-string';

/** GET /api/documents query as the screens send it (common documentListQuerySchema). */
export interface DocumentListParams {
  search?: string;
  /** One or more categories (sent comma-separated). */
  categories?: readonly DocumentCategory[];
  projectId?: string;
  limit?: number;
  offset?: number;
}

/** Documents (common/documents.ts routes). */
export const documentKeys = {
  all: ['documents'] as const,
  lists: () => [...documentKeys.all, 'list'] as const,
  list: (query: DocumentListParams) => [...documentKeys.lists(), query] as const,
  detail: (id: string) => [...documentKeys.all, 'detail', id] as const,
  provenance: (id: string) => [...documentKeys.all, 'provenance', id] as const,
};

export function useDocuments(query: DocumentListParams) {
  return useQuery({
    queryKey: documentKeys.list(query),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          documentListReplySchema,
          // queryString leaves the array out; the server takes the list comma-separated.
          `/api/documents${queryString({ ...query, category: query.categories?.join(',') })}`,
          signal,
        ),
      ).then((r) => r.data),
    placeholderData: (previous) => previous,
  });
}

/** One document with its content (for the viewer). */
export function useDocument(id: string | undefined) {
  return useQuery({
    queryKey: documentKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          documentReplySchema,
          `/api/documents/${encodeURIComponent(id ?? '')}`,
          signal,
        ),
      ).then(async (r) => {
        const document = r.data.document;
        // A large document's text is not inside the JSON: it is streamed from contentUrl.
        if (!document.contentUrl) return document;
        return { ...document, content: await fetchText(document.contentUrl, signal) };
      }),
    enabled: Boolean(id),
  });
}

/** Where a document's contents came from (GET /api/documents/{id}/provenance). */
export function useDocumentProvenance(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: documentKeys.provenance(id ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          provenanceReplySchema,
          `/api/documents/${encodeURIComponent(id ?? '')}/provenance`,
          signal,
        ),
      ).then((r) => r.provenance),
    enabled: Boolean(id) && enabled,
  });
}

/** GET of a text the API streams (bearer token; one refresh and retry on 401, as the client). */
async function fetchText(path: string, signal: AbortSignal): Promise<string> {
  const get = () => {
    const auth = getAuth();
    return fetch(path, {
      signal,
      headers: auth ? { Authorization: `Bearer ${auth.accessToken}` } : {},
    });
  };
  let res = await get();
  if (res.status === 401 && (await refreshTokens())) res = await get();
  if (!res.ok) throw new Error(`Could not read the document's text (HTTP ${res.status})`);
  return res.text();
}

export interface UploadDocumentInput {
  file: File;
  category: DocumentCategory;
  name?: string;
  projectId?: string;
}

export function useUploadDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, category, name, projectId }: UploadDocumentInput) => {
      const form = new FormData();
      // Text fields first: the server reads them before the file part.
      form.append('category', category);
      if (name?.trim()) form.append('name', name.trim());
      if (projectId) form.append('projectId', projectId);
      form.append('file', file, file.name);
      return unwrap(checkedApi.upload(documentReplySchema, '/api/documents/upload', form)).then(
        (r) => r.data.document,
      );
    },
    onSuccess: (doc) => {
      queryClient.setQueryData(documentKeys.detail(doc.id), doc);
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
    },
  });
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(
        checkedApi.delete(messageReplySchema, `/api/documents/${encodeURIComponent(id)}`),
      ).then(() => id),
    onSuccess: (id) => {
      queryClient.removeQueries({ queryKey: documentKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
    },
  });
}

/**
 * PUT /api/documents/:id with `projectId`: moves a document into a project, or out of every
 * project (null). The document lists and the research records it left or joined are stale after.
 */
export function useMoveDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, projectId }: { id: string; projectId: string | null }) =>
      unwrap(
        checkedApi.put(documentReplySchema, `/api/documents/${encodeURIComponent(id)}`, {
          projectId,
        }),
      ),
    onSuccess: (_, { id }) => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: [...projectKeys.all, 'record'] });
    },
  });
}
