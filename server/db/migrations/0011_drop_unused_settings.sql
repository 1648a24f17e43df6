-- Settings no code honoured are removed (agentAutonomy, saveAgentHistory, enableContinuousLearning,
-- cacheDatasets, maxCacheSize, dataAutoSave; docs/product-rules.md): their stored values go too.
-- "#-" leaves a document without the path unchanged.
UPDATE "user_settings"
SET "preferences" = "preferences"
  #- '{profile,dataAutoSave}'
  #- '{ai,agentAutonomy}'
  #- '{ai,saveAgentHistory}'
  #- '{ai,enableContinuousLearning}'
  #- '{data,cacheDatasets}'
  #- '{data,maxCacheSize}'
WHERE jsonb_typeof("preferences") = 'object'
  AND ("preferences" #> '{profile,dataAutoSave}' IS NOT NULL
    OR "preferences" #> '{ai,agentAutonomy}' IS NOT NULL
    OR "preferences" #> '{ai,saveAgentHistory}' IS NOT NULL
    OR "preferences" #> '{ai,enableContinuousLearning}' IS NOT NULL
    OR "preferences" #> '{data,cacheDatasets}' IS NOT NULL
    OR "preferences" #> '{data,maxCacheSize}' IS NOT NULL);
