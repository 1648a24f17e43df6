import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  MODEL_PRICE_LIMITS,
  priceKey,
  updateModelPricesRequestSchema,
  type ModelPrices,
  type PricedModel,
} from '../../../../common/usage';
import { useSaveModelPrices } from '../../../api/queries/usage';

const SOURCE_LABEL: Record<PricedModel['source'], string> = {
  default: 'list price',
  server: "server's",
  user: 'yours',
};

const usd = (v: number) => `$${v.toLocaleString('en-US', { maximumFractionDigits: 4 })}`;

/**
 * The prices the costs use, US dollars per million tokens: the defaults (the providers' list
 * prices as of `defaultsAsOf`), the server's, and the user's own, which the user sets or removes
 * here. `used`: the models the user's calls used, listed first.
 */
export function ModelPricesEditor({
  prices,
  used,
}: {
  prices: ModelPrices;
  used: readonly string[];
}) {
  const save = useSaveModelPrices();
  const [showAll, setShowAll] = useState(false);
  const [model, setModel] = useState('');
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();

  const own = prices.models.filter((m) => m.source === 'user');
  const shownKeys = new Set([...used.map(priceKey), ...own.map((m) => m.model)]);
  const rows: Array<PricedModel | { model: string; unpriced: true }> = [
    ...prices.unpriced.map((m) => ({ model: m, unpriced: true as const })),
    ...prices.models.filter((m) => showAll || shownKeys.has(m.model)),
  ];

  const put = (list: Array<{ model: string; input: number; output: number }>, message: string) => {
    setError(undefined);
    setDone(undefined);
    const parsed = updateModelPricesRequestSchema.safeParse({ prices: list });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'These prices cannot be saved');
      return;
    }
    save.mutate(parsed.data, {
      onSuccess: () => setDone(message),
      onError: (e) => setError(e.message),
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const id = priceKey(model);
    const i = Number(input);
    const o = Number(output);
    if (!id) return setError('Enter the model id, as your provider names it');
    if (input.trim() === '' || output.trim() === '' || !Number.isFinite(i) || !Number.isFinite(o)) {
      return setError('Enter both prices, in US dollars per million tokens');
    }
    const rest = own
      .filter((m) => m.model !== id)
      .map((m) => ({ model: m.model, input: m.input, output: m.output }));
    put([...rest, { model: id, input: i, output: o }], `Price for ${id} saved`);
    setModel('');
    setInput('');
    setOutput('');
  };

  const remove = (id: string) =>
    put(
      own
        .filter((m) => m.model !== id)
        .map((m) => ({ model: m.model, input: m.input, output: m.output })),
      `Your price for ${id} removed`,
    );

  const edit = (m: { model: string; input?: number; output?: number }) => {
    setModel(m.model);
    setInput(m.input !== undefined ? String(m.input) : '');
    setOutput(m.output !== undefined ? String(m.output) : '');
  };

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="textSecondary">
        Costs are estimates: tokens times a price per million tokens. The defaults are OpenAI&apos;s
        and Anthropic&apos;s list prices as of {prices.defaultsAsOf} (no caching or batch
        discounts); providers change them, so set your own where yours differ. A model without a
        price has an unknown cost. Your prices apply to all your sessions, past ones included.
      </Typography>
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          aria-label="Model prices, US dollars per million tokens"
          sx={{ '& td, & th': { px: { xs: 1, sm: 2 } } }}
        >
          <TableHead>
            <TableRow>
              <TableCell>Model</TableCell>
              <TableCell align="right">Input $/M</TableCell>
              <TableCell align="right">Output $/M</TableCell>
              <TableCell>Price</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>
                  <Typography variant="body2" color="textSecondary">
                    You have made no model calls yet.
                  </Typography>
                </TableCell>
              </TableRow>
            )}
            {rows.map((r) => (
              <TableRow key={r.model}>
                <TableCell
                  component="th"
                  scope="row"
                  sx={{ overflowWrap: 'break-word', minWidth: 88 }}
                >
                  {r.model}
                </TableCell>
                {'unpriced' in r ? (
                  <>
                    <TableCell align="right" colSpan={2}>
                      unknown
                    </TableCell>
                    <TableCell>
                      <Button size="small" onClick={() => edit(r)}>
                        Set price
                      </Button>
                    </TableCell>
                  </>
                ) : (
                  <>
                    <TableCell align="right">{usd(r.input)}</TableCell>
                    <TableCell align="right">{usd(r.output)}</TableCell>
                    <TableCell>
                      <Stack
                        direction="row"
                        spacing={0.5}
                        sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
                      >
                        <Chip
                          size="small"
                          label={SOURCE_LABEL[r.source]}
                          color={r.source === 'user' ? 'primary' : 'default'}
                          variant="outlined"
                        />
                        <Button size="small" onClick={() => edit(r)}>
                          Change
                        </Button>
                        {r.source === 'user' && (
                          <Button
                            size="small"
                            color="inherit"
                            onClick={() => remove(r.model)}
                            disabled={save.isPending}
                          >
                            Remove
                          </Button>
                        )}
                      </Stack>
                    </TableCell>
                  </>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Button size="small" sx={{ alignSelf: 'flex-start' }} onClick={() => setShowAll((v) => !v)}>
        {showAll ? 'Show only the models you use' : 'Show every priced model'}
      </Button>
      <Stack
        component="form"
        aria-label="Set a model price"
        onSubmit={submit}
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { sm: 'flex-start' } }}
      >
        <Autocomplete
          freeSolo
          options={prices.models.map((m) => m.model)}
          inputValue={model}
          onInputChange={(_e, v) => setModel(v)}
          sx={{ flex: 2, minWidth: 0 }}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Model id"
              slotProps={{
                ...params.slotProps,
                htmlInput: {
                  ...params.slotProps.htmlInput,
                  maxLength: MODEL_PRICE_LIMITS.modelIdMaxLength,
                },
              }}
            />
          )}
        />
        <TextField
          label="Input $ per million"
          type="number"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          slotProps={{ htmlInput: { min: 0, step: 'any' } }}
          sx={{ flex: 1 }}
        />
        <TextField
          label="Output $ per million"
          type="number"
          value={output}
          onChange={(e) => setOutput(e.target.value)}
          slotProps={{ htmlInput: { min: 0, step: 'any' } }}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="contained" disabled={save.isPending} sx={{ mt: { sm: 1 } }}>
          Save price
        </Button>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {done && !error && (
        <Alert severity="success" role="status">
          {done}
        </Alert>
      )}
    </Stack>
  );
}
