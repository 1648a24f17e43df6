import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import { WORKING_FILES_DIR, type WorkingFileRef } from '../../../common/teams/code';
import { useWorkingFileCandidates } from './codeQueries';

const sameRef = (a: WorkingFileRef, b: WorkingFileRef) => a.kind === b.kind && a.id === b.id;

/**
 * The selected project's datasets and model files (the Model team's .mod file and parameter
 * table first among the documents), to place read-only in the program's data/ folder: the
 * generated code is told their names and columns, and the editor's runs get them too.
 */
export function WorkingFilesPicker({
  projectId,
  value,
  onChange,
  disabled,
}: {
  projectId: string | undefined;
  value: WorkingFileRef[];
  onChange(files: WorkingFileRef[]): void;
  disabled?: boolean;
}) {
  const candidates = useWorkingFileCandidates(projectId);
  const files = candidates.data ?? [];
  return (
    <FormControl component="fieldset" variant="standard" disabled={disabled}>
      <FormLabel component="legend">Project files for the program</FormLabel>
      {!projectId ? (
        <FormHelperText>
          Choose a project to give the program its datasets and model files.
        </FormHelperText>
      ) : candidates.isPending ? (
        <FormHelperText>Reading the project's files...</FormHelperText>
      ) : candidates.isError ? (
        <FormHelperText error>{candidates.error.message}</FormHelperText>
      ) : files.length === 0 ? (
        <FormHelperText>
          This project has no dataset with stored data and no model file yet.
        </FormHelperText>
      ) : (
        <>
          <FormGroup>
            {files.map((f) => {
              const ref = { kind: f.kind, id: f.id };
              const checked = value.some((v) => sameRef(v, ref));
              return (
                <FormControlLabel
                  key={`${f.kind}:${f.id}`}
                  control={
                    <Checkbox
                      size="small"
                      checked={checked}
                      onChange={(e) =>
                        onChange(
                          e.target.checked
                            ? [...value, ref]
                            : value.filter((v) => !sameRef(v, ref)),
                        )
                      }
                    />
                  }
                  label={
                    <Typography variant="body2">
                      {f.name}{' '}
                      <Typography component="span" variant="caption" color="textSecondary">
                        ({f.detail})
                      </Typography>
                    </Typography>
                  }
                />
              );
            })}
          </FormGroup>
          <FormHelperText>
            Placed read-only in the program's {WORKING_FILES_DIR}/ folder (datasets as CSV); the
            model is told their names and columns.
          </FormHelperText>
        </>
      )}
    </FormControl>
  );
}
