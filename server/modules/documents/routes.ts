import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { idParamSchema, messageReplySchema } from '../../../common/api';
import {
  DOCUMENT_CONTENT_MAX_BYTES,
  createDocumentRequestSchema,
  documentListQuerySchema,
  documentListReplySchema,
  documentReplySchema,
  updateDocumentRequestSchema,
  uploadDocumentFieldsSchema,
} from '../../../common/documents';
import { provenanceReplySchema } from '../../../common/provenance';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { AppError, badRequest } from '../../platform/errors';
import { checkPartText, multipartFailure } from '../../platform/multipart';
import { createProjectsService } from '../projects/service';
import { createProjectsStore } from '../projects/store';
import {
  CONTENT_TYPES,
  attachmentHeader,
  decodeText,
  formatOfFileName,
  sanitizeFileName,
} from './files';
import { createPdfExtractor, looksLikePdf } from './pdf';
import { createDocumentsService } from './service';
import { createDocumentsStore } from './store';

/** JSON bodies carry up to 2 MB of text; escaping can double it. */
const JSON_BODY_LIMIT = 2 * DOCUMENT_CONTENT_MAX_BYTES + 64 * 1024;

/** Reads one multipart upload: text fields and exactly one file part, within the limit. */
async function readUpload(request: FastifyRequest, limitBytes: number) {
  if (!request.isMultipart()) {
    throw new AppError('bad_request', 'file: send multipart/form-data with one file part');
  }
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | undefined;
  try {
    for await (const part of request.parts({
      limits: { fileSize: limitBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
    })) {
      if (part.type === 'file') {
        checkPartText(part);
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest(`${part.fieldname}: unexpected file part; send it as "file"`);
        }
        file = { name: part.filename, bytes: await part.toBuffer() };
      } else {
        checkPartText(part);
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('too_large', `file: larger than the ${limitBytes} byte upload limit`);
    }
    if (code === 'FST_FILES_LIMIT') throw badRequest('file: send exactly one file');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw badRequest('Too many form fields');
    }
    throw multipartFailure(error);
  }
  if (!file) throw badRequest('file: a file is required');
  return { fields, file };
}

export async function documentsRoutes(app: Api, ctx: AppContext) {
  const projects = createProjectsService(createProjectsStore(ctx.db));
  const uploadLimit = ctx.config.limits.uploadBytes;
  const service = createDocumentsService({
    store: createDocumentsStore(ctx.db),
    projects,
    uploadLimitBytes: uploadLimit,
  });
  const user = { access: 'user' as const };
  // The text of a PDF is stored as the document's content, held to the upload limit too.
  const pdf = createPdfExtractor({ ...ctx.config.pdf, maxTextBytes: uploadLimit });
  app.addHook('onClose', async () => pdf.close());

  app.get('/api/documents', {
    config: user,
    schema: { querystring: documentListQuerySchema, response: { 200: documentListReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: await service.list(currentUser(request), request.query),
    }),
  });

  app.post('/api/documents', {
    config: user,
    bodyLimit: JSON_BODY_LIMIT,
    schema: { body: createDocumentRequestSchema, response: { 201: documentReplySchema } },
    handler: async (request, reply) => {
      const document = await service.create(currentUser(request), request.body);
      return reply
        .status(201)
        .send({ success: true, message: 'Document saved', data: { document } });
    },
  });

  // Multipart parsing exists only in this scope, so no other route accepts form uploads.
  await app.register(async (scope: Api) => {
    await scope.register(multipart, {
      limits: { fileSize: uploadLimit, files: 1 },
      throwFileSizeLimit: true,
    });
    scope.post('/api/documents/upload', {
      config: user,
      bodyLimit: uploadLimit + 64 * 1024,
      schema: { response: { 201: documentReplySchema } },
      handler: async (request, reply) => {
        const caller = currentUser(request);
        const { fields, file } = await readUpload(request, uploadLimit);
        const parsed = uploadDocumentFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw badRequest(issue?.message ?? 'Invalid form fields');
        }
        const fileName = sanitizeFileName(file.name);
        if (!fileName) throw badRequest('file: the file needs a name');
        const format = formatOfFileName(fileName);
        let content: string;
        let stored: Buffer | undefined;
        if (format === 'pdf') {
          // By content, not by name: a renamed file is refused before anything parses it.
          if (!looksLikePdf(file.bytes)) {
            throw badRequest('file: this is not a PDF (it does not begin with a PDF header)');
          }
          await service.checkCanAdd(caller, parsed.data.projectId);
          content = (await pdf.extract(file.bytes)).text;
          stored = file.bytes;
        } else {
          if (looksLikePdf(file.bytes)) {
            throw badRequest('file: this is a PDF; upload it with the .pdf extension');
          }
          content = decodeText(file.bytes);
        }
        const document = await service.upload(caller, {
          name: parsed.data.name ?? fileName,
          category: parsed.data.category,
          projectId: parsed.data.projectId,
          format,
          content,
          file: stored,
        });
        return reply
          .status(201)
          .send({ success: true, message: 'Document uploaded', data: { document } });
      },
    });
  });

  app.get('/api/documents/:id', {
    config: user,
    schema: { params: idParamSchema, response: { 200: documentReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { document: await service.get(currentUser(request), request.params.id) },
    }),
  });

  // The text of a document, streamed: what the viewer reads when a document is too large to be
  // sent inside GET /api/documents/{id} (its reply names this address as contentUrl).
  app.get('/api/documents/:id/content', {
    config: user,
    schema: { params: idParamSchema },
    handler: async (request, reply) => {
      const text = await service.text(currentUser(request), request.params.id);
      // The first piece is read before the reply starts, so a failure there is a normal error
      // reply; a failure later can only cut the stream.
      const pieces = text.chunks[Symbol.asyncIterator]();
      const first = await pieces.next();
      async function* all() {
        if (first.done) return;
        yield first.value;
        for (let next = await pieces.next(); !next.done; next = await pieces.next()) {
          yield next.value;
        }
      }
      return reply
        .header('Content-Type', 'text/plain; charset=utf-8')
        .header('Content-Length', String(text.bytes))
        .header('Cache-Control', 'no-store')
        .send(Readable.from(all()));
    },
  });

  app.get('/api/documents/:id/provenance', {
    config: user,
    schema: { params: idParamSchema, response: { 200: provenanceReplySchema } },
    handler: async (request) => ({
      success: true as const,
      provenance: await service.provenance(currentUser(request), request.params.id),
    }),
  });

  app.get('/api/documents/:id/download', {
    config: user,
    schema: { params: idParamSchema },
    handler: async (request, reply) => {
      const file = await service.file(currentUser(request), request.params.id);
      return reply
        .header('Content-Type', CONTENT_TYPES[file.format])
        .header('Content-Disposition', attachmentHeader(file.name, file.format))
        .header('Cache-Control', 'no-store')
        .send(file.body);
    },
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/documents/:id',
      config: user,
      bodyLimit: JSON_BODY_LIMIT,
      schema: {
        params: idParamSchema,
        body: updateDocumentRequestSchema,
        response: { 200: documentReplySchema },
      },
      handler: async (request) => ({
        success: true as const,
        message: 'Document updated',
        data: {
          document: await service.update(currentUser(request), request.params.id, request.body),
        },
      }),
    });
  }

  app.delete('/api/documents/:id', {
    config: user,
    schema: { params: idParamSchema, response: { 200: messageReplySchema } },
    handler: async (request) => {
      await service.remove(currentUser(request), request.params.id);
      return { success: true as const, message: 'Document deleted' };
    },
  });
}
